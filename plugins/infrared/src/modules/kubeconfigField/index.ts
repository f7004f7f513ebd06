import { createFrontendModule } from '@backstage/frontend-plugin-api';
import { kubeconfigSecretField } from './KubeconfigSecretField';

/**
 * The scaffolder's form field `ui:field: KubeconfigSecret`: a multi-line kubeconfig kept as a task
 * secret, which the template "New Kubernetes cluster" uses. Add it to the app's features.
 *
 * @alpha
 */
export const infraredScaffolderFieldsModule = createFrontendModule({
  pluginId: 'scaffolder',
  extensions: [kubeconfigSecretField],
});

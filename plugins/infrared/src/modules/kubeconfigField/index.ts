import { createFrontendModule } from '@backstage/frontend-plugin-api';
import { kubeconfigSecretField } from './KubeconfigSecretField';

/** The scaffolder's form field for a kubeconfig kept as a task secret (ui:field: KubeconfigSecret). */
export const kubeconfigFieldModule = createFrontendModule({
  pluginId: 'scaffolder',
  extensions: [kubeconfigSecretField],
});

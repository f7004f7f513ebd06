import { createApp } from '@backstage/frontend-defaults';
import catalogPlugin from '@backstage/plugin-catalog/alpha';
import kubernetesPlugin from '@backstage/plugin-kubernetes/alpha';
import orgPlugin from '@backstage/plugin-org/alpha';
import scaffolderPlugin from '@backstage/plugin-scaffolder/alpha';
import userSettingsPlugin from '@backstage/plugin-user-settings/alpha';
import infraredPlugin, {
  infraredKubernetesAuthModule,
  infraredScaffolderFieldsModule,
} from '@infrared-clusters/plugin-infrared/alpha';
import { navModule } from './modules/nav';
import { signInModule } from './modules/signIn';
import { tablesModule } from './modules/tables';

export default createApp({
  features: [
    catalogPlugin,
    kubernetesPlugin,
    infraredKubernetesAuthModule,
    orgPlugin,
    scaffolderPlugin,
    infraredScaffolderFieldsModule,
    userSettingsPlugin,
    infraredPlugin,
    navModule,
    signInModule,
    tablesModule,
  ],
});

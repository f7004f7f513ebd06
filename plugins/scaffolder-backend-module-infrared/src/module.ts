import {
  coreServices,
  createBackendModule,
} from '@backstage/backend-plugin-api';
import { scaffolderActionsExtensionPoint } from '@backstage/plugin-scaffolder-node';
import { createBuildClusterAction } from './actions/build';
import { createRegisterClusterAction } from './actions/register';
import { createWaitForClusterAction } from './actions/wait';
import { infraredApiFor } from './infraredApi';

/**
 * The scaffolder module of Infrared clusters: the actions infrared:cluster:register,
 * infrared:cluster:build and infrared:cluster:wait, each calling the Infrared REST API on behalf
 * of the template's runner.
 *
 * @public
 */
export const scaffolderModuleInfrared = createBackendModule({
  pluginId: 'scaffolder',
  moduleId: 'infrared',
  register(reg) {
    reg.registerInit({
      deps: {
        scaffolder: scaffolderActionsExtensionPoint,
        auth: coreServices.auth,
        discovery: coreServices.discovery,
      },
      async init({ scaffolder, auth, discovery }) {
        const infraredApi = infraredApiFor({ auth, discovery });
        scaffolder.addActions(
          createRegisterClusterAction({ infraredApi }),
          createBuildClusterAction({ infraredApi }),
          createWaitForClusterAction({ infraredApi }),
        );
      },
    });
  },
});

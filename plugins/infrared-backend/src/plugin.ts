import {
  coreServices,
  createBackendPlugin,
} from '@backstage/backend-plugin-api';
import { infraredPermissions } from '@internal/plugin-infrared-common';
import { createRouter } from './api/router';

/**
 * The Infrared backend plugin: REST API under /api/infrared and the reconcilers.
 *
 * @public
 */
export const infraredPlugin = createBackendPlugin({
  pluginId: 'infrared',
  register(env) {
    env.registerInit({
      deps: {
        httpRouter: coreServices.httpRouter,
        permissionsRegistry: coreServices.permissionsRegistry,
      },
      async init({ httpRouter, permissionsRegistry }) {
        permissionsRegistry.addPermissions(infraredPermissions);
        httpRouter.use(await createRouter());
      },
    });
  },
});

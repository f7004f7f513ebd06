import {
  coreServices,
  createBackendModule,
} from '@backstage/backend-plugin-api';
import { policyExtensionPoint } from '@backstage/plugin-permission-node/alpha';
import { PlatformAdminPolicy } from './platformAdminPolicy';

/** The module id the startup check recognises. */
export const PLATFORM_ADMIN_POLICY_MODULE_ID = 'infrared-platform-admins';

/**
 * The permission policy for a backend whose only policy need is Infrared's: a module of the
 * permission plugin that sets a policy allowing Infrared's changes (register, remove, provision
 * clusters, org allowlists) and the Kubernetes proxy to the platform admins of
 * `infrared.platformAdmins` only, and every other permission to everyone (what the allow-all policy
 * of `@backstage/create-app` gives). Install it in place of that allow-all policy module (a backend
 * has one policy). To keep a policy of your own, compose `createInfraredPlatformAdminDecision`
 * into it instead.
 *
 * @public
 */
export const permissionModuleInfraredPlatformAdmins = createBackendModule({
  pluginId: 'permission',
  moduleId: PLATFORM_ADMIN_POLICY_MODULE_ID,
  register(reg) {
    reg.registerInit({
      deps: { policy: policyExtensionPoint, config: coreServices.rootConfig },
      async init({ policy, config }) {
        policy.setPolicy(new PlatformAdminPolicy(config));
      },
    });
  },
});

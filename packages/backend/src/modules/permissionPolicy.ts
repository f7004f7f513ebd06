import {
  coreServices,
  createBackendModule,
} from '@backstage/backend-plugin-api';
import { policyExtensionPoint } from '@backstage/plugin-permission-node/alpha';
import {
  PlatformAdminPolicy,
  readPlatformAdminPolicyOptions,
} from './platformAdminPolicy';

export default createBackendModule({
  pluginId: 'permission',
  moduleId: 'platform-admin-policy',
  register(reg) {
    reg.registerInit({
      deps: { policy: policyExtensionPoint, config: coreServices.rootConfig },
      async init({ policy, config }) {
        policy.setPolicy(
          new PlatformAdminPolicy(readPlatformAdminPolicyOptions(config)),
        );
      },
    });
  },
});

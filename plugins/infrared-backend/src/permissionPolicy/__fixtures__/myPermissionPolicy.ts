import {
  coreServices,
  createBackendModule,
} from '@backstage/backend-plugin-api';
import {
  AuthorizeResult,
  PolicyDecision,
} from '@backstage/plugin-permission-common';
import {
  PermissionPolicy,
  PolicyQuery,
  PolicyQueryUser,
} from '@backstage/plugin-permission-node';
import { policyExtensionPoint } from '@backstage/plugin-permission-node/alpha';
import {
  createInfraredPlatformAdminDecision,
  InfraredPlatformAdminDecision,
} from '@infrared-clusters/plugin-infrared-backend';

class MyPermissionPolicy implements PermissionPolicy {
  constructor(private readonly infrared: InfraredPlatformAdminDecision) {}

  async handle(
    request: PolicyQuery,
    user?: PolicyQueryUser,
  ): Promise<PolicyDecision> {
    // Infrared's permissions (and kubernetes.proxy): platform admins only
    const infrared = this.infrared(request, user);
    if (infrared) return infrared;
    // ...your own rules for every other permission
    return { result: AuthorizeResult.ALLOW };
  }
}

export default createBackendModule({
  pluginId: 'permission',
  moduleId: 'my-permission-policy',
  register(reg) {
    reg.registerInit({
      deps: { policy: policyExtensionPoint, config: coreServices.rootConfig },
      async init({ policy, config }) {
        policy.setPolicy(
          new MyPermissionPolicy(createInfraredPlatformAdminDecision(config)),
        );
      },
    });
  },
});

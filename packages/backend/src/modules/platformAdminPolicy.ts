import { Config } from '@backstage/config';
import {
  AuthorizeResult,
  PolicyDecision,
} from '@backstage/plugin-permission-common';
import {
  PermissionPolicy,
  PolicyQuery,
  PolicyQueryUser,
} from '@backstage/plugin-permission-node';

const GUEST_USER_REF = 'user:development/guest';
/**
 * The Kubernetes plugin's proxy (`/api/kubernetes/proxy`): any request to a cluster, as the
 * credential the plugin holds for it. Not `kubernetes.clusters.read` or `kubernetes.resources.read`,
 * which the entity's Kubernetes tab needs and every signed-in user keeps.
 */
const KUBERNETES_PROXY_PERMISSION = 'kubernetes.proxy';
const DEFAULT_ADMIN_GROUPS = ['group:default/platform-admins'];

export interface PlatformAdminPolicyOptions {
  /** Entity refs of the groups whose members are platform admins. */
  adminGroups: string[];
  /** Whether the local-development guest user is a platform admin. */
  allowGuest: boolean;
}

export function readPlatformAdminPolicyOptions(
  config: Config,
): PlatformAdminPolicyOptions {
  return {
    adminGroups:
      config.getOptionalStringArray('infrared.platformAdmins.groups') ??
      DEFAULT_ADMIN_GROUPS,
    allowGuest:
      config.getOptionalBoolean('infrared.platformAdmins.allowGuest') ?? false,
  };
}

/**
 * The portal's permission policy: the Infrared permissions that change clusters or allowlists
 * (create, delete, infrared.allowlist.update, ...) and the Kubernetes proxy (`kubernetes.proxy`) are
 * for platform admins only; reading Infrared's permissions and everything else outside Infrared
 * (the Kubernetes tab's `kubernetes.clusters.read` and `kubernetes.resources.read` among them) is
 * allowed to any signed-in user.
 */
export class PlatformAdminPolicy implements PermissionPolicy {
  constructor(private readonly options: PlatformAdminPolicyOptions) {}

  async handle(
    request: PolicyQuery,
    user?: PolicyQueryUser,
  ): Promise<PolicyDecision> {
    const { name, attributes } = request.permission;
    const isInfrared = name.startsWith('infrared.');
    const adminOnly =
      name === KUBERNETES_PROXY_PERMISSION ||
      (isInfrared && attributes.action !== 'read');
    if (!adminOnly) {
      return { result: AuthorizeResult.ALLOW };
    }
    return {
      result: this.isPlatformAdmin(user)
        ? AuthorizeResult.ALLOW
        : AuthorizeResult.DENY,
    };
  }

  private isPlatformAdmin(user?: PolicyQueryUser): boolean {
    if (!user) return false;
    const userRef = user.info.userEntityRef;
    if (this.options.allowGuest && userRef === GUEST_USER_REF) return true;
    return user.info.ownershipEntityRefs.some(ref =>
      this.options.adminGroups.includes(ref),
    );
  }
}

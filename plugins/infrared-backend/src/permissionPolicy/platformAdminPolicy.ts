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
import { markPlatformAdminDecisionCreated } from './composed';

const GUEST_USER_REF = 'user:development/guest';
/**
 * The Kubernetes plugin's proxy (`/api/kubernetes/proxy`): any request to a cluster, as the
 * credential the plugin holds for it (with the Kubernetes module, every registered cluster's). Not
 * `kubernetes.clusters.read` or `kubernetes.resources.read`, which the entity's Kubernetes tab needs
 * and every signed-in user keeps.
 */
const KUBERNETES_PROXY_PERMISSION = 'kubernetes.proxy';
const DEFAULT_ADMIN_GROUPS = ['group:default/platform-admins'];

/** Who is a platform admin, from `infrared.platformAdmins`. */
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
 * Infrared's part of a permission policy: a decision for the permissions it owns, `undefined` for
 * every other permission (the rest of your policy decides those).
 *
 * @public
 */
export type InfraredPlatformAdminDecision = (
  request: PolicyQuery,
  user?: PolicyQueryUser,
) => PolicyDecision | undefined;

function isPlatformAdmin(
  options: PlatformAdminPolicyOptions,
  user?: PolicyQueryUser,
): boolean {
  if (!user) return false;
  if (options.allowGuest && user.info.userEntityRef === GUEST_USER_REF) {
    return true;
  }
  return user.info.ownershipEntityRefs.some(ref =>
    options.adminGroups.includes(ref),
  );
}

/**
 * Infrared's platform-admin rule, to compose into your own permission policy. From
 * `infrared.platformAdmins.groups` (default `group:default/platform-admins`) and
 * `infrared.platformAdmins.allowGuest` (default false):
 *
 * - `infrared.*` permissions that change something (`infrared.cluster.create`, `.delete`,
 *   `.provision`, `infrared.allowlist.update`): ALLOW for members of those groups, DENY for everyone
 *   else (and for a request without a user);
 * - `infrared.*` reads (`infrared.cluster.read`): ALLOW;
 * - `kubernetes.proxy` (any request through the Kubernetes plugin's proxy, with the credential the
 *   Infrared Kubernetes module gives it for every registered cluster): platform admins only;
 * - any other permission: `undefined`, for your policy to decide.
 *
 * @public
 */
export function createInfraredPlatformAdminDecision(
  config: Config,
): InfraredPlatformAdminDecision {
  const options = readPlatformAdminPolicyOptions(config);
  markPlatformAdminDecisionCreated();
  return (request, user) => {
    const { name, attributes } = request.permission;
    const isInfrared = name.startsWith('infrared.');
    if (!isInfrared && name !== KUBERNETES_PROXY_PERMISSION) return undefined;
    if (isInfrared && attributes.action === 'read') {
      return { result: AuthorizeResult.ALLOW };
    }
    return {
      result: isPlatformAdmin(options, user)
        ? AuthorizeResult.ALLOW
        : AuthorizeResult.DENY,
    };
  };
}

/**
 * The policy of `permissionModuleInfraredPlatformAdmins`: Infrared's platform-admin rule
 * (`createInfraredPlatformAdminDecision`), and ALLOW for every other permission, as the allow-all
 * policy of `@backstage/create-app` gives.
 */
export class PlatformAdminPolicy implements PermissionPolicy {
  private readonly infrared: InfraredPlatformAdminDecision;

  constructor(config: Config) {
    this.infrared = createInfraredPlatformAdminDecision(config);
  }

  async handle(
    request: PolicyQuery,
    user?: PolicyQueryUser,
  ): Promise<PolicyDecision> {
    return this.infrared(request, user) ?? { result: AuthorizeResult.ALLOW };
  }
}

import type {
  DiscoveryService,
  LifecycleService,
  LoggerService,
  RootInstanceMetadataService,
} from '@backstage/backend-plugin-api';
import type { Config } from '@backstage/config';
import { infraredPermissions } from '@infrared-clusters/plugin-infrared-common';
import { platformAdminDecisionCreated } from './composed';
import { PLATFORM_ADMIN_POLICY_MODULE_ID } from './module';

/** The README section on installing the policy, named in every warning. */
export const PERMISSIONS_README_URL =
  'https://github.com/darkshiftio/infrared-clusters/tree/main/plugins/infrared-backend#permissions';

/** Module ids of policies known to allow every permission to everyone. */
const ALLOW_ALL_MODULE_IDS = ['allow-all-policy'];

/** What the startup check found; `warn` ones mean Infrared's changes may be open to everyone. */
export type PermissionPolicyFinding =
  | { verdict: 'permissions-disabled' }
  | { verdict: 'allow-all'; modules: string[] }
  | { verdict: 'platform-admins'; modules: string[] }
  | { verdict: 'composed'; modules: string[] }
  | { verdict: 'unverified'; modules: string[] }
  | { verdict: 'remote'; url: string }
  | { verdict: 'no-permission-backend'; url: string };

export interface PermissionPolicyCheckOptions {
  config: Config;
  logger: LoggerService;
  discovery: DiscoveryService;
  instanceMetadata: RootInstanceMetadataService;
  /** Stops the retries (shutdown). */
  signal?: AbortSignal;
  /** Tries of the permission backend's /health when it runs in another backend. Default 5. */
  attempts?: number;
  /** Wait before the second try, doubled after each. Default 2 s. */
  retryDelayMs?: number;
}

/** Infrared's permissions that change something: the ones the policy must keep to platform admins. */
export const ADMIN_PERMISSION_NAMES = infraredPermissions
  .filter(p => p.attributes.action !== 'read')
  .map(p => p.name);

const OPEN_TO_ALL =
  'any signed-in user, the guest included, can register and remove clusters, change org allowlists ' +
  'and run OpenTofu (build and destroy billable clusters)';
const FIX =
  "install permissionModuleInfraredPlatformAdmins from '@infrared-clusters/plugin-infrared-backend' " +
  'in place of the allow-all policy module, or compose createInfraredPlatformAdminDecision into ' +
  `your own policy: ${PERMISSIONS_README_URL}`;

/** The log line for a finding: `warn` when Infrared's changes are, or may be, open to everyone. */
export function describeFinding(f: PermissionPolicyFinding): {
  level: 'warn' | 'info';
  message: string;
} {
  const names = ADMIN_PERMISSION_NAMES.join(', ');
  const modules = 'modules' in f ? f.modules.join(', ') || 'none' : '';
  switch (f.verdict) {
    case 'permissions-disabled':
      return {
        level: 'warn',
        message: `infrared: permission.enabled is not true, so the permission framework allows every permission (${names}) to everyone: ${OPEN_TO_ALL}. Set permission.enabled: true and ${FIX}`,
      };
    case 'allow-all':
      return {
        level: 'warn',
        message: `infrared: the permission policy (module ${modules}) allows Infrared's admin permissions (${names}) to everyone: ${OPEN_TO_ALL}. To keep them to platform admins (infrared.platformAdmins.groups), ${FIX}`,
      };
    case 'unverified':
      return {
        level: 'warn',
        message: `infrared: cannot tell whether the permission policy (module ${modules}) keeps Infrared's admin permissions (${names}) to platform admins, and it does not use createInfraredPlatformAdminDecision. If it allows them, ${OPEN_TO_ALL}. To keep them to platform admins (infrared.platformAdmins.groups), ${FIX}`,
      };
    case 'no-permission-backend':
      return {
        level: 'warn',
        message: `infrared: permission.enabled is true but no permission backend answers at ${f.url}: every Infrared request that needs a permission fails. Add @backstage/plugin-permission-backend and a policy; ${FIX}`,
      };
    case 'platform-admins':
      return {
        level: 'info',
        message: `infrared: permission policy ${PLATFORM_ADMIN_POLICY_MODULE_ID}: Infrared's admin permissions (${names}) are for platform admins only (infrared.platformAdmins)`,
      };
    case 'composed':
      return {
        level: 'info',
        message: `infrared: the permission policy (module ${modules}) composes createInfraredPlatformAdminDecision: Infrared's admin permissions are for platform admins only, where the policy asks it`,
      };
    case 'remote':
    default:
      return {
        level: 'info',
        message: `infrared: the permission backend runs in another backend (${
          'url' in f ? f.url : ''
        }); Infrared cannot see its policy. Make sure it keeps ${names} to platform admins: ${PERMISSIONS_README_URL}`,
      };
  }
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise(resolve => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/** Whether a permission backend answers GET /health at `url`, tried a bounded number of times. */
async function answersHealth(
  url: string,
  options: PermissionPolicyCheckOptions,
): Promise<boolean> {
  const attempts = options.attempts ?? 5;
  let delay = options.retryDelayMs ?? 2000;
  for (let i = 0; i < attempts && !options.signal?.aborted; i++) {
    if (i > 0) {
      await sleep(delay, options.signal);
      delay *= 2;
    }
    try {
      const res = await fetch(`${url}/health`, {
        signal: options.signal
          ? AbortSignal.any([options.signal, AbortSignal.timeout(5000)])
          : AbortSignal.timeout(5000),
      });
      if (res.ok) return true;
    } catch {
      // not up yet, or unreachable: try again
    }
  }
  return false;
}

/**
 * What the backend's permission setup gives Infrared's admin permissions. The permission backend's
 * /authorize answers only user credentials (a service token gets 403 whatever the policy), so the
 * policy cannot be asked without a user; the check reads `permission.enabled` and the modules
 * installed for the permission plugin instead, and knows the allow-all module, Infrared's own, and
 * whether this process made Infrared's decision for a policy of the adopter's.
 */
export async function checkPermissionPolicy(
  options: PermissionPolicyCheckOptions,
): Promise<PermissionPolicyFinding> {
  if (options.config.getOptionalBoolean('permission.enabled') !== true) {
    return { verdict: 'permissions-disabled' };
  }
  const plugins = await options.instanceMetadata.getInstalledPlugins();
  const permission = plugins.find(p => p.pluginId === 'permission');
  if (!permission) {
    const url = await options.discovery.getBaseUrl('permission');
    return (await answersHealth(url, options))
      ? { verdict: 'remote', url }
      : { verdict: 'no-permission-backend', url };
  }
  const modules = permission.modules.map(m => m.moduleId);
  if (modules.some(m => ALLOW_ALL_MODULE_IDS.includes(m))) {
    return { verdict: 'allow-all', modules };
  }
  if (modules.includes(PLATFORM_ADMIN_POLICY_MODULE_ID)) {
    return { verdict: 'platform-admins', modules };
  }
  return platformAdminDecisionCreated()
    ? { verdict: 'composed', modules }
    : { verdict: 'unverified', modules };
}

/**
 * Runs the check once the backend has started, without holding the start up, and logs its
 * finding; never throws. Stopped by shutdown.
 */
export function schedulePermissionPolicyCheck(
  options: Omit<PermissionPolicyCheckOptions, 'signal'> & {
    lifecycle: LifecycleService;
  },
): void {
  const { lifecycle, ...check } = options;
  const controller = new AbortController();
  lifecycle.addShutdownHook(() => controller.abort());
  lifecycle.addStartupHook(() => {
    checkPermissionPolicy({ ...check, signal: controller.signal })
      .then(finding => {
        if (controller.signal.aborted) return;
        const { level, message } = describeFinding(finding);
        check.logger[level](message);
      })
      .catch(e =>
        check.logger.warn(
          `infrared: could not check the permission policy: ${e.message}`,
        ),
      );
  });
}

import { usePermission } from '@backstage/plugin-permission-react';
import {
  infraredAllowlistUpdatePermission,
  infraredClusterCreatePermission,
  infraredClusterDeletePermission,
} from '@infrared-clusters/plugin-infrared-common';
import {
  ALLOWLIST_DENIED,
  CHECKING_PERMISSION,
  REGISTER_DENIED,
  REMOVE_DENIED,
} from '../lib/permissionText';

export interface Allowance {
  allowed: boolean;
  /** The permission framework has not answered yet. */
  checking?: boolean;
  /** Why the control is disabled, when it is. */
  reason?: string;
}

export interface ClusterPermissions {
  register: Allowance;
  remove: Allowance;
  /** Changing which orgs may use a cluster (infrared.allowlist.update). */
  allowlist: Allowance;
}

function allowance(
  result: { loading: boolean; allowed: boolean; error?: Error },
  denied: string,
): Allowance {
  if (result.loading) {
    return { allowed: false, checking: true, reason: CHECKING_PERMISSION };
  }
  if (result.error) {
    return {
      allowed: false,
      reason: `${denied}; your permission could not be checked: ${result.error.message}`,
    };
  }
  return result.allowed
    ? { allowed: true }
    : { allowed: false, reason: denied };
}

/** Whether the user may register and remove clusters and change allowlists (platform admins), from the permission framework. */
export function useClusterPermissions(): ClusterPermissions {
  const create = usePermission({ permission: infraredClusterCreatePermission });
  const remove = usePermission({ permission: infraredClusterDeletePermission });
  const allowlist = usePermission({
    permission: infraredAllowlistUpdatePermission,
  });
  return {
    register: allowance(create, REGISTER_DENIED),
    remove: allowance(remove, REMOVE_DENIED),
    allowlist: allowance(allowlist, ALLOWLIST_DENIED),
  };
}

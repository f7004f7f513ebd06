/** Why the register and remove controls are disabled for a user who is not a platform admin. */
export const REGISTER_DENIED = 'Only platform admins can register clusters';
export const REMOVE_DENIED = 'Only platform admins can remove clusters';
export const ALLOWLIST_DENIED =
  'Only platform admins can change which orgs may use a cluster';
export const CHECKING_PERMISSION = 'Checking your permissions…';

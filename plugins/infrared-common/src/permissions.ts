import { createPermission } from '@backstage/plugin-permission-common';

/**
 * Read clusters and their status.
 *
 * @public
 */
export const infraredClusterReadPermission = createPermission({
  name: 'infrared.cluster.read',
  attributes: { action: 'read' },
});

/**
 * Register a cluster (platform admins).
 *
 * @public
 */
export const infraredClusterCreatePermission = createPermission({
  name: 'infrared.cluster.create',
  attributes: { action: 'create' },
});

/**
 * Remove a cluster (platform admins).
 *
 * @public
 */
export const infraredClusterDeletePermission = createPermission({
  name: 'infrared.cluster.delete',
  attributes: { action: 'delete' },
});

/**
 * Set a built cluster's OpenTofu action (platform admins): apply builds real, billable cloud
 * resources; destroy removes them.
 *
 * @public
 */
export const infraredClusterProvisionPermission = createPermission({
  name: 'infrared.cluster.provision',
  attributes: { action: 'update' },
});

/**
 * Replace an org's cluster allowlist (platform admins): which clusters the org's zones may run on.
 *
 * @public
 */
export const infraredAllowlistUpdatePermission = createPermission({
  name: 'infrared.allowlist.update',
  attributes: { action: 'update' },
});

/**
 * Every permission of the Infrared plugins, for registration with the permission framework.
 *
 * @public
 */
export const infraredPermissions = [
  infraredClusterReadPermission,
  infraredClusterCreatePermission,
  infraredClusterDeletePermission,
  infraredAllowlistUpdatePermission,
  infraredClusterProvisionPermission,
];

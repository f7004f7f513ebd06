/*
 * Settings that more than one capability reads (kube/ builds the management cluster's client from
 * them, clusters/ names its Cluster, registrar/ reaches it), so that none of those folders imports
 * another's config.
 */
export {
  readManagementClusterConfig,
  type ManagementClusterConfig,
} from './managementCluster';
export { findRepoRoot } from './repoRoot';

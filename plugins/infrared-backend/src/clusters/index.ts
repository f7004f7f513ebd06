export { ClusterService, type ClusterServiceOptions } from './ClusterService';
export {
  ClusterReconciler,
  type ClusterReconcilerOptions,
  type ReconcilePassSummary,
  type ReconcileScope,
} from './reconciler';
export {
  planCluster,
  settleRegistered,
  mergeOwnedStatus,
  statusChanged,
  filesHash,
  REGISTERED_FILES_ANNOTATION,
  resolveConnection,
  managementClusterResource,
  isManagementCluster,
  type ClusterConnection,
  type ClusterOutcome,
  type ClusterPlan,
  type ObservedCluster,
  type SecretAction,
} from './plan';
export { observeCluster, registrationChange } from './observe';
export { executePlan } from './apply';
export { ReconcileTrigger } from './trigger';
export {
  DEFAULT_MAX_FILES_PER_CHANGE,
  readClustersConfig,
  type ClustersConfig,
} from './config';
export {
  createClusters,
  CLUSTERS_RECONCILE_TASK_ID,
  type CreateClustersOptions,
} from './createClusters';
export { ClusterListCache, type WatchedClusters } from './listCache';
export { startClusterWatches } from './watchedClusters';
export type { PassWatches } from './passWatches';

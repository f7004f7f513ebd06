export { ClusterService, type ClusterServiceOptions } from './ClusterService';
export {
  ClusterReconciler,
  registrationChange,
  type ClusterReconcilerOptions,
  type ReconcilePassSummary,
} from './reconciler';
export {
  planClusterReconcile,
  completeRegistration,
  mergeOwnedStatus,
  statusChanged,
  filesHash,
  REGISTERED_FILES_ANNOTATION,
  type ClusterPlan,
  type ObservedCluster,
  type SecretAction,
} from './plan';
export { resolveConnection, type ClusterConnection } from './connection';
export { ReconcileTrigger } from './trigger';
export { readClustersConfig, type ClustersConfig } from './config';
export { managementClusterResource, isManagementCluster } from './management';
export {
  createClusters,
  CLUSTERS_RECONCILE_TASK_ID,
  type CreateClustersOptions,
} from './createClusters';

/*
 * The clusters planner: pure functions from what was observed to what to write, and what a
 * write's outcome means. Nothing here reads or writes; ../observe.ts reads, ../apply.ts writes.
 */
export { planCluster } from './cluster';
export {
  argoSecretReplacement,
  desiredArgoSecret,
  isOurArgoSecret,
  planArgoSecret,
  type ArgoSecretPlan,
} from './argoSecret';
export {
  filesHash,
  planRegistered,
  REGISTERED_FILES_ANNOTATION,
  settleRegistered,
  type ClusterSettlement,
} from './registered';
export {
  isManagementCluster,
  managementClusterResource,
  planManagementCluster,
} from './managementCluster';
export { dependentLabels } from './ownership';
export {
  findCondition,
  mergeOwnedStatus,
  statusChanged,
  statusWrite,
} from './status';
export {
  kubeconfigSecretRef,
  resolveConnection,
  type ClusterConnection,
  type ConnectionProblemReason,
} from './connection';
export type {
  ClusterOutcome,
  ClusterPlan,
  ObservedCluster,
  PublishStep,
  RegistrationChange,
  SecretAction,
} from './types';

/*
 * The clusters planner: pure functions from what was read to what to write, and what a write's
 * outcome means. Nothing here reads or writes; the executor (../reconciler.ts) does both.
 */
export { planClusterReconcile } from './cluster';
export { settleCluster, type ClusterSettlement } from './outcome';
export {
  probeTarget,
  secretReads,
  type ListedSecrets,
  type SecretSource,
} from './reads';
export {
  isManagementCluster,
  managementClusterResource,
  planManagementCluster,
} from './managementCluster';
export {
  completeRegistration,
  filesHash,
  registrationChange,
  REGISTERED_FILES_ANNOTATION,
} from './registration';
export {
  argoSecretReplacement,
  desiredArgoSecret,
  isOurArgoSecret,
} from './argoSecret';
export { dependentLabels } from './ownership';
export { mergeOwnedStatus, statusChanged, statusWrite } from './status';
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
  Refusal,
  RegistrationChange,
  SecretAction,
} from './types';

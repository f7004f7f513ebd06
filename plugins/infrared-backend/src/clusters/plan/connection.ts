/*
 * How a Cluster is reached lives in -node (kube/connection.ts), shared with the Kubernetes plugin's
 * module: the probe and the Kubernetes tab connect the same way.
 */
export {
  kubeconfigSecretRef,
  resolveConnection,
  type ConnectionProblemReason,
  type ResolvedConnection as ClusterConnection,
} from '@infrared-clusters/infrared-kube';

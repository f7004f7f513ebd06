/*
 * How a Cluster is reached lives in infrared-kube (src/connection.ts), shared with the Kubernetes
 * plugin's module: the probe and the Kubernetes tab connect the same way.
 */
export {
  kubeconfigSecretRef,
  resolveConnection,
  type ConnectionProblemReason,
  type ResolvedConnection as ClusterConnection,
} from '@infrared-clusters/infrared-kube';

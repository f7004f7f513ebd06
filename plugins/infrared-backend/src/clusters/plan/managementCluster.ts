import {
  CLUSTER_KIND,
  INFRARED_API_VERSION,
  MANAGED_BY_INFRARED,
  MANAGED_BY_LABEL,
  type ClusterResource,
} from '@infrared-clusters/plugin-infrared-common';

/** The management cluster as the backend makes it when it is missing: inCluster, type management. */
export function managementClusterResource(name: string): ClusterResource {
  return {
    apiVersion: INFRARED_API_VERSION,
    kind: CLUSTER_KIND,
    metadata: { name, labels: { [MANAGED_BY_LABEL]: MANAGED_BY_INFRARED } },
    spec: { type: 'management', connection: { inCluster: true } },
  };
}

/** Whether a Cluster is the management cluster: its type says so, or config names it. */
export function isManagementCluster(
  cluster: ClusterResource,
  managementClusterName: string,
): boolean {
  return (
    cluster.spec.type === 'management' ||
    cluster.metadata.name === managementClusterName
  );
}

/**
 * What a pass does about the management cluster's Cluster: makes it when a complete LIST of the
 * Clusters lacks it (a pass over named Clusters can't tell), and warns when the Cluster of that
 * name is not of type management.
 */
export function planManagementCluster(
  /** Every Cluster, from a LIST; undefined when the pass did not LIST them. */
  clusters: readonly ClusterResource[] | undefined,
  name: string,
): { create?: ClusterResource; warning?: string } {
  if (!clusters) return {};
  const existing = clusters.find(c => c.metadata.name === name);
  if (!existing) return { create: managementClusterResource(name) };
  if (existing.spec.type !== 'management') {
    return {
      warning: `infrared: Cluster ${name} is the configured management cluster but has type ${existing.spec.type}`,
    };
  }
  return {};
}

import {
  CLUSTER_KIND,
  INFRARED_API_VERSION,
  MANAGED_BY_INFRARED,
  MANAGED_BY_LABEL,
  type ClusterResource,
} from '@internal/plugin-infrared-common';

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

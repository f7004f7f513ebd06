import {
  INFRARED_NAMESPACE,
  MANAGED_BY_INFRARED,
  MANAGED_BY_LABEL,
  type ClusterResource,
  type SecretObject,
} from '@infrared-clusters/plugin-infrared-common';
import {
  forEachLimited,
  kubeconfigSecretRef,
  type ManagementApi,
} from '@infrared-clusters/infrared-kube';

const MANAGED_SELECTOR = `${MANAGED_BY_LABEL}=${MANAGED_BY_INFRARED}`;

/**
 * The management cluster's Clusters and Secrets, as the provider reads them.
 *
 * @public
 */
export type ProviderApi = Pick<ManagementApi, 'clusters' | 'secrets'>;

/** A Cluster with the kubeconfig Secret it names (undefined: none, or it does not exist). */
export interface ClusterRead {
  cluster: ClusterResource;
  kubeconfigSecret?: SecretObject;
}

/**
 * Every Cluster with its kubeconfig Secret: one LIST of Clusters and one of the kubeconfig Secrets
 * Infrared made; a GET only for a Secret someone else made (a Cluster created with kubectl).
 */
export async function readAllClusters(
  api: ProviderApi,
  concurrency = 8,
): Promise<ClusterRead[]> {
  const [clusters, secrets] = await Promise.all([
    api.clusters.list(),
    api.secrets.list(INFRARED_NAMESPACE, MANAGED_SELECTOR),
  ]);
  const listed = new Map(secrets.map(s => [s.metadata.name, s]));
  const reads: ClusterRead[] = clusters.map(cluster => {
    const ref = kubeconfigSecretRef(cluster);
    return {
      cluster,
      kubeconfigSecret: ref ? listed.get(ref.name) : undefined,
    };
  });
  const unlisted = reads.filter(read => {
    const ref = kubeconfigSecretRef(read.cluster);
    return (
      ref && !read.kubeconfigSecret && !read.cluster.spec.connection?.inCluster
    );
  });
  await forEachLimited(unlisted, concurrency, async read => {
    read.kubeconfigSecret = await api.secrets.get(
      INFRARED_NAMESPACE,
      kubeconfigSecretRef(read.cluster)!.name,
    );
  });
  return reads;
}

/** One Cluster with its kubeconfig Secret, with GETs; undefined when the Cluster is gone. */
export async function readCluster(
  api: ProviderApi,
  name: string,
): Promise<ClusterRead | undefined> {
  const cluster = await api.clusters.get(name);
  if (!cluster) return undefined;
  const ref = kubeconfigSecretRef(cluster);
  if (!ref || cluster.spec.connection?.inCluster) return { cluster };
  return {
    cluster,
    kubeconfigSecret: await api.secrets.get(INFRARED_NAMESPACE, ref.name),
  };
}

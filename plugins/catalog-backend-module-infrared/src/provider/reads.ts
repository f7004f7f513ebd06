import {
  ARGOCD_NAMESPACE,
  argoSecretName,
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

/**
 * A Cluster with the kubeconfig Secret it names (undefined: none, or it does not exist), and the
 * Argo CD cluster Secret of its name when Infrared made it (labelled managed-by=infrared).
 */
export interface ClusterRead {
  cluster: ClusterResource;
  kubeconfigSecret?: SecretObject;
  argoSecret?: SecretObject;
}

/**
 * Every Cluster with its kubeconfig Secret and Infrared's Argo CD Secret: one LIST of Clusters,
 * one of the kubeconfig Secrets Infrared made, one of the Argo CD Secrets Infrared made (each
 * paged, metadata first: a Secret's data is read again only when it changed); a GET only for a
 * kubeconfig Secret someone else made (a Cluster created with kubectl).
 */
export async function readAllClusters(
  api: ProviderApi,
  concurrency = 8,
): Promise<ClusterRead[]> {
  const [clusters, secrets, argoSecrets] = await Promise.all([
    api.clusters.list(),
    api.secrets.list(INFRARED_NAMESPACE, MANAGED_SELECTOR),
    api.secrets.list(ARGOCD_NAMESPACE, MANAGED_SELECTOR),
  ]);
  const listed = new Map(secrets.map(s => [s.metadata.name, s]));
  const argos = new Map(argoSecrets.map(s => [s.metadata.name, s]));
  const reads: ClusterRead[] = clusters.map(cluster => {
    const ref = kubeconfigSecretRef(cluster);
    const argoSecret = argos.get(argoSecretName(cluster.metadata.name));
    return {
      cluster,
      kubeconfigSecret: ref ? listed.get(ref.name) : undefined,
      ...(argoSecret ? { argoSecret } : {}),
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

/**
 * One Cluster with its kubeconfig Secret and Argo CD Secret, with GETs (the two Secrets at once);
 * undefined when the Cluster is gone.
 */
export async function readCluster(
  api: ProviderApi,
  name: string,
): Promise<ClusterRead | undefined> {
  const cluster = await api.clusters.get(name);
  if (!cluster) return undefined;
  const ref = kubeconfigSecretRef(cluster);
  if (!ref || cluster.spec.connection?.inCluster) return { cluster };
  const [kubeconfigSecret, argoSecret] = await Promise.all([
    api.secrets.get(INFRARED_NAMESPACE, ref.name),
    api.secrets.get(ARGOCD_NAMESPACE, argoSecretName(name)),
  ]);
  return {
    cluster,
    kubeconfigSecret,
    ...(argoSecret ? { argoSecret } : {}),
  };
}

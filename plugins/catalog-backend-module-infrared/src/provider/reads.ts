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

/** More Clusters than this need their kubeconfig Secret: one LIST of them instead of a GET each. */
const LIST_KUBECONFIGS_OVER = 20;

/**
 * Every Cluster with Infrared's Argo CD Secret and, when it needs it, its kubeconfig Secret. One
 * LIST of Clusters and one of the Argo CD Secrets Infrared made; a Cluster `hasEndpoint` answers
 * for (registered: its endpoint is in its Argo CD Secret) gets no kubeconfig Secret. For the others,
 * one LIST of the kubeconfig Secrets Infrared made (a GET each when there are at most 20), and a GET
 * for a Secret someone else made (a Cluster created with kubectl). Every LIST is paged, the
 * Secrets' metadata first: a Secret's data is read again only when it changed.
 */
export async function readAllClusters(
  api: ProviderApi,
  concurrency = 8,
  hasEndpoint: (
    cluster: ClusterResource,
    argoSecret?: SecretObject,
  ) => boolean = () => false,
): Promise<ClusterRead[]> {
  const [clusters, argoSecrets] = await Promise.all([
    api.clusters.list(),
    api.secrets.list(ARGOCD_NAMESPACE, MANAGED_SELECTOR),
  ]);
  const argos = new Map(argoSecrets.map(s => [s.metadata.name, s]));
  const reads: ClusterRead[] = clusters.map(cluster => {
    const argoSecret = argos.get(argoSecretName(cluster.metadata.name));
    return { cluster, ...(argoSecret ? { argoSecret } : {}) };
  });
  const needing = reads.filter(
    read =>
      kubeconfigSecretRef(read.cluster) &&
      !read.cluster.spec.connection?.inCluster &&
      !hasEndpoint(read.cluster, read.argoSecret),
  );
  const listed =
    needing.length > LIST_KUBECONFIGS_OVER
      ? new Map(
          (await api.secrets.list(INFRARED_NAMESPACE, MANAGED_SELECTOR)).map(
            s => [s.metadata.name, s],
          ),
        )
      : new Map<string, SecretObject>();
  await forEachLimited(needing, concurrency, async read => {
    const { name } = kubeconfigSecretRef(read.cluster)!;
    read.kubeconfigSecret =
      listed.get(name) ?? (await api.secrets.get(INFRARED_NAMESPACE, name));
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

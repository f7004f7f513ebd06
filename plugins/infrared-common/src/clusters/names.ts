/**
 * Names the seeds fix: API group, kinds, namespaces, Secret names, labels and condition types.
 *
 * @public
 */

export const INFRARED_GROUP = 'infrared.darkshift.io';
/** @public */
export const INFRARED_VERSION = 'v1alpha1';
/** @public */
export const INFRARED_API_VERSION = `${INFRARED_GROUP}/${INFRARED_VERSION}`;

/**
 * Kind and plural of each Infrared custom resource.
 *
 * @public
 */
export const INFRARED_KINDS = {
  cluster: { kind: 'Cluster', plural: 'clusters', namespaced: false },
  organization: {
    kind: 'Organization',
    plural: 'organizations',
    namespaced: false,
  },
  product: { kind: 'Product', plural: 'products', namespaced: true },
  release: { kind: 'Release', plural: 'releases', namespaced: true },
} as const;

/** @public */
export const CLUSTER_KIND = INFRARED_KINDS.cluster.kind;
/** @public */
export const CLUSTER_PLURAL = INFRARED_KINDS.cluster.plural;

/**
 * Namespace of kubeconfig Secrets, OpenTofu Jobs and the backend's service account.
 *
 * @public
 */
export const INFRARED_NAMESPACE = 'infrared';
/**
 * Namespace of Argo CD and its cluster Secrets.
 *
 * @public
 */
export const ARGOCD_NAMESPACE = 'argocd';

/**
 * Key of the kubeconfig in `cluster-<name>-kubeconfig`.
 *
 * @public
 */
export const KUBECONFIG_SECRET_KEY = 'kubeconfig';

/**
 * The management cluster's name when config names none.
 *
 * @public
 */
export const DEFAULT_MANAGEMENT_CLUSTER_NAME = 'infrared-mgmt';

/**
 * Argo CD's built-in destination for the cluster it runs on.
 *
 * @public
 */
export const IN_CLUSTER_SERVER = 'https://kubernetes.default.svc';

/** @public */
export const ARGOCD_SECRET_TYPE_LABEL = 'argocd.argoproj.io/secret-type';
/** @public */
export const MANAGED_BY_LABEL = 'app.kubernetes.io/managed-by';
/** @public */
export const MANAGED_BY_INFRARED = 'infrared';

/**
 * Condition types on a Cluster, in the order registration reaches them.
 *
 * @public
 */
export const ClusterConditionTypes = {
  Connected: 'Connected',
  Registered: 'Registered',
} as const;
/** @public */
export type ClusterConditionType =
  (typeof ClusterConditionTypes)[keyof typeof ClusterConditionTypes];

/**
 * The Secret in namespace `infrared` that holds a registered cluster's kubeconfig.
 *
 * @public
 */
export function kubeconfigSecretName(clusterName: string): string {
  return `cluster-${clusterName}-kubeconfig`;
}

/**
 * The Argo CD cluster Secret in namespace `argocd`.
 *
 * @public
 */
export function argoSecretName(clusterName: string): string {
  return `cluster-${clusterName}`;
}

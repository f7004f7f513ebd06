import {
  ANNOTATION_LOCATION,
  ANNOTATION_ORIGIN_LOCATION,
  makeValidator,
  stringifyEntityRef,
  type Entity,
} from '@backstage/catalog-model';
import {
  ANNOTATION_KUBERNETES_API_SERVER,
  ANNOTATION_KUBERNETES_API_SERVER_CA,
  ANNOTATION_KUBERNETES_AUTH_PROVIDER,
  ANNOTATION_KUBERNETES_SKIP_TLS_VERIFY,
  KUBERNETES_LABEL_SELECTOR_QUERY_ANNOTATION,
} from '@backstage/plugin-kubernetes-common';
import {
  ClusterConditionTypes,
  INFRARED_GROUP,
  type ClusterResource,
} from '@infrared-clusters/plugin-infrared-common';
import type { ClusterEndpoint } from './endpoint';

/**
 * The entity provider's name: the catalog ties its entities to it.
 *
 * @public
 */
export const INFRARED_PROVIDER_NAME = 'infrared-clusters';
/**
 * The Resource's `spec.type`, which the Kubernetes plugin's catalog cluster locator looks for.
 *
 * @public
 */
export const KUBERNETES_CLUSTER_TYPE = 'kubernetes-cluster';
/**
 * The Kubernetes plugin's auth strategy the Infrared Kubernetes module registers.
 *
 * @public
 */
export const INFRARED_KUBERNETES_AUTH_PROVIDER = 'infrared';

/**
 * Annotations of a cluster's Resource, besides the Kubernetes plugin's.
 *
 * @public
 */
export const CLUSTER_ANNOTATIONS = {
  /** The name of the Cluster resource on the management cluster. */
  cluster: `${INFRARED_GROUP}/cluster`,
  /** The `server` Argo CD reaches the cluster at (the Cluster's status.argoServer). */
  argoServer: `${INFRARED_GROUP}/argocd-server`,
  /** Where the cluster's components are in the gitops repository (status.gitopsPath). */
  gitopsPath: `${INFRARED_GROUP}/gitops-path`,
  /** The Registered condition's status: True, False or Unknown. */
  registered: `${INFRARED_GROUP}/registered`,
  /** On a registrar child's Resource: the namespace the registrar found it in. */
  discoveredFrom: `${INFRARED_GROUP}/discovered-from`,
  /** On a registrar child's Resource: the provider preset whose Secret it came from (k3k, vcluster, ...). */
  registrarProvider: `${INFRARED_GROUP}/registrar-provider`,
  /** On a registrar child's Resource: `active`, or `demoted` (superseded by a rename). */
  registrarState: `${INFRARED_GROUP}/registrar-state`,
} as const;

/**
 * The Kubernetes plugin's annotation limiting an entity's Kubernetes tab to one cluster (read by
 * its `singleTenant` service locator, `kubernetes.serviceLocatorMethod.type: singleTenant`).
 *
 * @public
 */
export const ANNOTATION_KUBERNETES_CLUSTER = 'backstage.io/kubernetes-cluster';

/**
 * The label an object carries to stay off its cluster's Kubernetes tab.
 *
 * @public
 */
export const HIDE_FROM_CLUSTER_TAB_LABEL = `${INFRARED_GROUP}/hide-from-cluster-tab`;

/**
 * The label selector of a cluster Resource's Kubernetes tab: every object on the cluster, but those
 * labelled {@link HIDE_FROM_CLUSTER_TAB_LABEL} (the Kubernetes plugin needs a selector: without
 * one it would look for `backstage.io/kubernetes-id=<cluster>`).
 *
 * @public
 */
export const CLUSTER_OBJECTS_SELECTOR = `!${HIDE_FROM_CLUSTER_TAB_LABEL}`;

/**
 * How every Resource of the provider is made.
 *
 * @public
 */
export interface ClusterEntityOptions {
  /** `spec.owner`. */
  owner: string;
  /** `spec.system`, when set. */
  system?: string;
  /**
   * The Clusters page's URL (`<app.baseUrl>/clusters`): each entity links its cluster's panel,
   * `<clustersPageUrl>/<name>`, when set.
   */
  clustersPageUrl?: string;
}

const validator = makeValidator();

/** The catalog namespace of the cluster Resources. */
export const CLUSTER_ENTITY_NAMESPACE = 'default';

/**
 * The entity ref of a cluster's Resource: `resource:default/<cluster>`.
 *
 * @public
 */
export function clusterEntityRef(clusterName: string): string {
  return stringifyEntityRef({
    kind: 'Resource',
    namespace: CLUSTER_ENTITY_NAMESPACE,
    name: clusterName,
  });
}

/** Why a Cluster cannot be an entity (its name is not an entity name), or undefined. */
export function clusterEntityProblem(
  cluster: Pick<ClusterResource, 'metadata'>,
): string | undefined {
  const name = cluster.metadata.name;
  return validator.isValidEntityName(name)
    ? undefined
    : `cluster ${name} has no catalog entity: its name is not a valid entity name (at most 63 characters of letters, digits, - _ .)`;
}

const isTag = (value: string | undefined): value is string =>
  !!value && validator.isValidTag(value);

function describe(cluster: ClusterResource): string {
  const { type, flavor, provider, region } = cluster.spec;
  const where = [provider, region].filter(Boolean).join(' ');
  return `${flavor ? `${flavor} ` : ''}${type} cluster${
    where ? ` on ${where}` : ''
  }, from its Infrared Cluster resource`;
}

function labels(cluster: ClusterResource): Record<string, string> {
  const { type, flavor, provider, region } = cluster.spec;
  const out: Record<string, string> = {};
  const add = (key: string, value: string | undefined) => {
    if (value && validator.isValidLabelValue(value)) {
      out[`${INFRARED_GROUP}/${key}`] = value;
    }
  };
  add('type', type);
  add('flavor', flavor);
  add('provider', provider);
  add('region', region);
  return out;
}

function kubernetesAnnotations(
  endpoint: ClusterEndpoint | undefined,
): Record<string, string> {
  if (!endpoint) return {};
  return {
    [ANNOTATION_KUBERNETES_API_SERVER]: endpoint.server,
    [ANNOTATION_KUBERNETES_AUTH_PROVIDER]: INFRARED_KUBERNETES_AUTH_PROVIDER,
    ...(endpoint.caData
      ? { [ANNOTATION_KUBERNETES_API_SERVER_CA]: endpoint.caData }
      : {}),
    ...(endpoint.skipTlsVerify
      ? { [ANNOTATION_KUBERNETES_SKIP_TLS_VERIFY]: 'true' }
      : {}),
  };
}

/** The link to a cluster's panel on the Clusters page, when the page's URL is known. */
export function panelLinks(
  name: string,
  options: ClusterEntityOptions,
): Pick<Entity['metadata'], 'links'> {
  if (!options.clustersPageUrl) return {};
  return {
    links: [
      {
        url: `${options.clustersPageUrl.replace(/\/$/, '')}/${name}`,
        title: 'Cluster panel',
        icon: 'dashboard',
      },
    ],
  };
}

/**
 * A Cluster as a `Resource` of type `kubernetes-cluster`: the Kubernetes plugin's annotations from
 * its endpoint (no credential: the endpoint has none), the Argo CD server and gitops path from its
 * status, its spec as labels. Pure.
 *
 * @public
 */
export function clusterEntity(
  cluster: ClusterResource,
  endpoint: ClusterEndpoint | undefined,
  options: ClusterEntityOptions,
): Entity {
  const name = cluster.metadata.name;
  const location = `${INFRARED_PROVIDER_NAME}:${name}`;
  const status = cluster.status ?? {};
  const registered = status.conditions?.find(
    c => c.type === ClusterConditionTypes.Registered,
  );
  const annotations: Record<string, string> = {
    [ANNOTATION_LOCATION]: location,
    [ANNOTATION_ORIGIN_LOCATION]: location,
    [CLUSTER_ANNOTATIONS.cluster]: name,
    ...kubernetesAnnotations(endpoint),
    // its Kubernetes tab: every object on this cluster, and on no other
    [ANNOTATION_KUBERNETES_CLUSTER]: name,
    [KUBERNETES_LABEL_SELECTOR_QUERY_ANNOTATION]: CLUSTER_OBJECTS_SELECTOR,
  };
  if (status.argoServer) {
    annotations[CLUSTER_ANNOTATIONS.argoServer] = status.argoServer;
  }
  if (status.gitopsPath) {
    annotations[CLUSTER_ANNOTATIONS.gitopsPath] = status.gitopsPath;
  }
  annotations[CLUSTER_ANNOTATIONS.registered] = registered?.status ?? 'Unknown';
  return {
    apiVersion: 'backstage.io/v1alpha1',
    kind: 'Resource',
    metadata: {
      name,
      namespace: CLUSTER_ENTITY_NAMESPACE,
      description: describe(cluster),
      labels: labels(cluster),
      annotations,
      ...panelLinks(name, options),
      tags: (
        [cluster.spec.flavor, cluster.spec.provider] as Array<
          string | undefined
        >
      ).filter(isTag),
    },
    spec: {
      type: KUBERNETES_CLUSTER_TYPE,
      owner: options.owner,
      ...(options.system ? { system: options.system } : {}),
    },
  };
}

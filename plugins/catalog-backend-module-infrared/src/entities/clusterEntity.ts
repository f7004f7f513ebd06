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
} as const;

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
  cluster: ClusterResource,
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
      ...(options.clustersPageUrl
        ? {
            links: [
              {
                url: `${options.clustersPageUrl.replace(/\/$/, '')}/${name}`,
                title: 'Cluster panel',
                icon: 'dashboard',
              },
            ],
          }
        : {}),
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

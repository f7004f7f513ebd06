import type { ClusterCondition, ClusterResource } from '../clusters/types';
import type {
  Cluster,
  ClusterConnectionEnum,
  ClusterList as ClusterListBody,
  DiscoveredFrom as DiscoveredFromBody,
  HealthStatus as HealthStatusBody,
} from '../schema/openapi';

/*
 * The API's answers are the models generated from openapi.yaml (src/schema/openapi/generated);
 * these names are what the plugins import.
 */

/**
 * How Infrared reaches a cluster. Never the kubeconfig itself.
 *
 * @public
 */
export type ClusterConnectionKind = ClusterConnectionEnum;

/**
 * A cluster as the REST API returns it: no credential, ever.
 *
 * @public
 */
export type ClusterView = Cluster;

/**
 * Where the registrar found a child cluster.
 *
 * @public
 */
export type DiscoveredFrom = DiscoveredFromBody;

/**
 * A child cluster the registrar registered in Argo CD, as the Clusters page lists it.
 *
 * @public
 */
export interface DiscoveredClusterInput {
  name: string;
  server: string;
  sourceNamespace: string;
  provider: string;
  state: 'active' | 'demoted';
}

/**
 * The view of a discovered child cluster: no Cluster resource, only its Argo CD Secret.
 *
 * @public
 */
export function discoveredClusterView(
  input: DiscoveredClusterInput,
): ClusterView {
  const view: ClusterView = {
    name: input.name,
    type: 'workload',
    connection: 'none',
    conditions: [],
    createdAt: '',
    argoSecret: `cluster-${input.name}`,
    argoServer: input.server,
    discovered: {
      sourceNamespace: input.sourceNamespace,
      state: input.state,
    },
  };
  if (input.provider) view.discovered!.provider = input.provider;
  return view;
}

/**
 * Body of GET /v1/clusters.
 *
 * @public
 */
export type ClusterList = ClusterListBody;

/**
 * Body of GET /health.
 *
 * @public
 */
export type HealthStatus = HealthStatusBody;

/**
 * The view of a Cluster resource; picks fields one by one so no credential can leak through.
 *
 * @public
 */
export function clusterView(resource: ClusterResource): ClusterView {
  const { spec, status = {}, metadata } = resource;
  const connection = spec.connection;
  let connectionKind: ClusterConnectionKind = 'none';
  if (connection?.inCluster) connectionKind = 'inCluster';
  else if (connection?.kubeconfigSecretRef) connectionKind = 'kubeconfig';
  const view: ClusterView = {
    name: metadata.name,
    type: spec.type,
    connection: connectionKind,
    conditions: (status.conditions ?? []).map(c => ({ ...c })),
    createdAt: metadata.creationTimestamp ?? '',
  };
  const optional = {
    flavor: spec.flavor,
    provider: spec.provider,
    region: spec.region,
    server: spec.server,
    kubernetesVersion: status.kubernetesVersion,
    nodes: status.nodes,
    argoSecret: status.argoSecret,
    argoServer: status.argoServer,
    gitopsPath: status.gitopsPath,
    pullRequest: status.pullRequest && { ...status.pullRequest },
  };
  for (const [key, value] of Object.entries(optional)) {
    if (value !== undefined && value !== '') (view as any)[key] = value;
  }
  if (spec.template) {
    view.template = { module: spec.template.module };
    if (spec.template.version) view.template.version = spec.template.version;
  }
  if (spec.provision) {
    const p = spec.provision;
    const provision: NonNullable<ClusterView['provision']> = {
      action: p.action ?? 'plan',
    };
    if (p.variables) provision.variables = { ...p.variables };
    if (p.credentialsSecretRef?.name)
      provision.credentialsSecret = p.credentialsSecretRef.name;
    if (p.source) provision.source = p.source;
    if (p.image) provision.image = p.image;
    if (status.provision) {
      const { summary, ...rest } = status.provision;
      provision.status = {
        ...rest,
        ...(summary
          ? {
              summary: {
                ...summary,
                resources: (summary.resources ?? []).map(r => ({
                  address: r.address,
                  actions: [...r.actions],
                })),
              },
            }
          : {}),
      } as NonNullable<typeof provision.status>;
    }
    view.provision = provision;
  }
  return view;
}

/**
 * The condition of a type, if the cluster has one.
 *
 * @public
 */
export function findCondition(
  view: Pick<ClusterView, 'conditions'>,
  type: string,
): ClusterCondition | undefined {
  return view.conditions.find(c => c.type === type);
}

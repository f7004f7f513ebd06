import type { ClusterCondition, ClusterResource } from '../clusters/types';
import type {
  Cluster,
  ClusterConnectionEnum,
  ClusterList as ClusterListBody,
  DiscoveredFrom as DiscoveredFromBody,
  HealthStatus as HealthStatusBody,
  RegistrarChildPass as RegistrarChildPassBody,
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
 * What the registrar's last pass did with a discovered child.
 *
 * @public
 */
export type RegistrarChildPass = RegistrarChildPassBody;

/**
 * A child cluster the registrar found, as the Clusters page lists it: from its Argo CD Secret,
 * and from the registrar's last pass when this backend ran one.
 *
 * @public
 */
export interface DiscoveredClusterInput {
  name: string;
  /** The Argo CD Secret's name; default `cluster-<name>`. */
  secret?: string;
  server: string;
  sourceNamespace: string;
  provider: string;
  state: 'active' | 'demoted';
  /** Whether its Argo CD Secret exists; default true. */
  registered?: boolean;
  lastPass?: RegistrarChildPass;
}

const PASS_REASONS: Record<RegistrarChildPass['outcome'], string> = {
  registered: 'Registered',
  updated: 'Updated',
  unchanged: 'Unchanged',
  skipped: 'Skipped',
  failed: 'Failed',
  removed: 'Removed',
};

/**
 * The Registered condition of a discovered child, from the registrar's last pass: True while its
 * Argo CD Secret exists and the pass kept it (registered, updated, unchanged), False when the pass
 * skipped or failed it. Since when the passes give that outcome; none before a pass.
 */
function registeredCondition(
  input: DiscoveredClusterInput,
  secret: string,
): ClusterCondition | undefined {
  const pass = input.lastPass;
  if (!pass) return undefined;
  const registered = input.registered !== false;
  const kept = ['registered', 'updated', 'unchanged'].includes(pass.outcome);
  const status = registered && kept ? 'True' : 'False';
  const detail = pass.reason ? ` (${pass.reason})` : '';
  const said =
    pass.message ??
    (pass.outcome === 'unchanged'
      ? `Argo CD Secret ${secret} is up to date for ${input.server}`
      : '');
  return {
    type: 'Registered',
    status,
    reason: PASS_REASONS[pass.outcome],
    message: `The registrar's last pass: ${pass.outcome}${detail}${
      said ? `: ${said}` : ''
    }.`,
    lastTransitionTime: pass.since,
  };
}

/**
 * The view of a discovered child cluster: no Cluster resource, only its Argo CD Secret (when it
 * has one) and what the registrar's last pass did with it.
 *
 * @public
 */
export function discoveredClusterView(
  input: DiscoveredClusterInput,
): ClusterView {
  const secret = input.secret ?? `cluster-${input.name}`;
  const registered = input.registered !== false;
  const condition = registeredCondition(input, secret);
  const view: ClusterView = {
    name: input.name,
    type: 'workload',
    connection: 'none',
    conditions: condition ? [condition] : [],
    createdAt: '',
    discovered: {
      sourceNamespace: input.sourceNamespace,
      state: input.state,
    },
  };
  if (registered) {
    view.argoSecret = secret;
    if (input.server) view.argoServer = input.server;
  }
  if (input.provider) view.discovered!.provider = input.provider;
  if (input.lastPass) {
    view.discovered!.registered = registered;
    view.discovered!.lastPass = { ...input.lastPass };
  }
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

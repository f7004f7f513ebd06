/**
 * Who may do what in the portal: every route of the Infrared backend, the Kubernetes plugin, the
 * scaffolder actions, the catalog and Argo CD's proxy endpoint, as each kind of caller, with the
 * status each one gets. `matrix.integration.test.ts` runs every cell on the real backend (the
 * real permission backend and policy, the real auth backend's tokens) against the devenv control
 * plane; `matrix.readme.test.ts` keeps the README's permission section equal to this table.
 */

/** The kinds of caller, in the table's column order. */
export const CALLERS = [
  'anonymous',
  'user',
  'orgAdmin',
  'platformAdmin',
  'external',
] as const;
export type Caller = (typeof CALLERS)[number];

/** How the README names each caller. */
export const CALLER_TITLES: Record<Caller, string> = {
  anonymous: 'anonymous (no token)',
  user: 'signed-in user',
  orgAdmin: 'org admin of `acme`',
  platformAdmin: 'platform admin (group:default/platform-admins)',
  external: 'external-access token (plugin infrared only)',
};

export type Surface =
  | 'infrared'
  | 'kubernetes'
  | 'scaffolder'
  | 'catalog'
  | 'argocd';

export interface MatrixRow {
  /** Unique; the integration test's executor for the row has the same id. */
  id: string;
  surface: Surface;
  /** Method and path as the caller sends it (`{...}` a parameter). */
  route: string;
  /** The permission (or rule) that decides; what the README prints. */
  rule: string;
  /** Whether the request would write: a refused one must leave everything as it was. */
  write: boolean;
  /** The status each caller gets. */
  expect: Record<Caller, number>;
}

type Answers = [number, number, number, number, number];
const answers = ([
  anonymous,
  user,
  orgAdmin,
  platformAdmin,
  external,
]: Answers) =>
  ({ anonymous, user, orgAdmin, platformAdmin, external } as Record<
    Caller,
    number
  >);

/** A row of the Infrared REST API (`/api/infrared` + route). */
function infrared(
  id: string,
  route: string,
  rule: string,
  expect: Answers,
  write = false,
): MatrixRow {
  return {
    id,
    surface: 'infrared',
    route,
    rule,
    write,
    expect: answers(expect),
  };
}

const READ: Answers = [401, 200, 200, 200, 200];
const ADMIN_WRITE = (ok: number): Answers => [401, 403, 403, ok, ok];
const PROXY = 'kubernetes.proxy (platform admins), and the cluster opted in';

export const PERMISSION_MATRIX: MatrixRow[] = [
  infrared('health', 'GET /health', 'signed in', READ),
  infrared('clusters.list', 'GET /v1/clusters', 'infrared.cluster.read', READ),
  infrared(
    'clusters.get',
    'GET /v1/clusters/{name}',
    'infrared.cluster.read',
    READ,
  ),
  infrared(
    'clusters.register',
    'POST /v1/clusters (a kubeconfig)',
    'infrared.cluster.create',
    ADMIN_WRITE(201),
    true,
  ),
  infrared(
    'clusters.build.apply',
    'POST /v1/clusters (a template, provision.action apply, no acknowledgeBillable)',
    'infrared.cluster.create + infrared.cluster.provision + acknowledgeBillable: true (400 naming the field)',
    ADMIN_WRITE(400),
    true,
  ),
  infrared(
    'clusters.remove',
    'DELETE /v1/clusters/{name}',
    'infrared.cluster.delete',
    ADMIN_WRITE(200),
    true,
  ),
  infrared(
    'provision.plan',
    'PUT /v1/clusters/{name}/provision/action (plan)',
    'infrared.cluster.provision',
    ADMIN_WRITE(200),
    true,
  ),
  infrared(
    'provision.apply',
    'PUT /v1/clusters/{name}/provision/action (apply, no acknowledgeBillable)',
    'infrared.cluster.provision + acknowledgeBillable: true (400 naming the field)',
    ADMIN_WRITE(400),
    true,
  ),
  infrared(
    'provision.log',
    'GET /v1/clusters/{name}/provision/log',
    'infrared.cluster.read',
    READ,
  ),
  infrared(
    'templates',
    'GET /v1/provisioning/templates',
    'infrared.cluster.read',
    READ,
  ),
  infrared('orgs', 'GET /v1/orgs', 'infrared.cluster.read', READ),
  infrared(
    'allowlist.get',
    'GET /v1/orgs/{org}/cluster-allowlist',
    'infrared.cluster.read',
    READ,
  ),
  infrared(
    'allowlist.put',
    'PUT /v1/orgs/{org}/cluster-allowlist',
    'infrared.allowlist.update',
    ADMIN_WRITE(200),
    true,
  ),
  infrared('zones', 'GET /v1/zones', 'infrared.cluster.read', READ),
  infrared(
    'placement',
    'GET /v1/products/{ns}/{name}/placement',
    'infrared.cluster.read',
    READ,
  ),
  infrared(
    'zone.cluster',
    'PUT /v1/products/{ns}/{name}/zones/{zone}/cluster',
    "org admin of the Product's org, or infrared.allowlist.update",
    [401, 403, 200, 200, 200],
    true,
  ),
  infrared(
    'zone.approve',
    'POST /v1/products/{ns}/{name}/releases/{release}/zones/{zone}/approval (AwaitingApproval)',
    "org admin of the Product's org, or infrared.allowlist.update",
    [401, 403, 200, 200, 200],
    true,
  ),
  infrared(
    'zone.approve.healthy',
    'POST /v1/products/{ns}/{name}/releases/{release}/zones/{zone}/approval (a Healthy zone)',
    "org admin of the Product's org, or infrared.allowlist.update; only a zone AwaitingApproval (409)",
    [401, 403, 409, 409, 409],
    true,
  ),
  {
    id: 'kubernetes.clusters',
    surface: 'kubernetes',
    route: 'GET /clusters',
    rule: 'kubernetes.clusters.read',
    write: false,
    expect: answers([401, 200, 200, 200, 403]),
  },
  {
    id: 'kubernetes.services',
    surface: 'kubernetes',
    route: "POST /services/{entity} (the entity's Kubernetes tab)",
    rule: 'kubernetes.clusters.read + kubernetes.resources.read',
    write: false,
    expect: answers([401, 200, 200, 200, 403]),
  },
  {
    id: 'kubernetes.proxy.workload.secrets',
    surface: 'kubernetes',
    route:
      'GET /proxy/api/v1/namespaces/kube-system/secrets (a workload cluster opted in)',
    rule: PROXY,
    write: false,
    expect: answers([401, 403, 403, 200, 403]),
  },
  {
    id: 'kubernetes.proxy.workload.namespace',
    surface: 'kubernetes',
    route: 'POST /proxy/api/v1/namespaces (a workload cluster opted in)',
    rule: PROXY,
    write: true,
    expect: answers([401, 403, 403, 201, 403]),
  },
  {
    id: 'kubernetes.proxy.closed.secrets',
    surface: 'kubernetes',
    route:
      'GET /proxy/api/v1/namespaces/kube-system/secrets (a workload cluster not opted in)',
    rule: PROXY,
    write: false,
    expect: answers([401, 403, 403, 403, 403]),
  },
  {
    id: 'kubernetes.proxy.management.secrets',
    surface: 'kubernetes',
    route:
      'GET /proxy/api/v1/namespaces/infrared/secrets (the management cluster)',
    rule: "never with the backend's identity",
    write: false,
    expect: answers([401, 403, 403, 403, 403]),
  },
  {
    id: 'kubernetes.proxy.management.namespace',
    surface: 'kubernetes',
    route: 'POST /proxy/api/v1/namespaces (the management cluster)',
    rule: "never with the backend's identity",
    write: true,
    expect: answers([401, 403, 403, 403, 403]),
  },
  {
    id: 'scaffolder.register',
    surface: 'scaffolder',
    route: 'infrared:cluster:register (a task of POST /v2/tasks)',
    rule: 'scaffolder.task.create; the action: infrared.cluster.create as the runner',
    write: true,
    expect: answers([401, 403, 403, 201, 403]),
  },
  {
    id: 'scaffolder.build',
    surface: 'scaffolder',
    route: 'infrared:cluster:build (a task of POST /v2/tasks)',
    rule: 'scaffolder.task.create; the action: infrared.cluster.create as the runner',
    write: true,
    expect: answers([401, 403, 403, 201, 403]),
  },
  {
    id: 'scaffolder.wait',
    surface: 'scaffolder',
    route: 'infrared:cluster:wait (a task of POST /v2/tasks)',
    rule: 'scaffolder.task.create; the action: infrared.cluster.read as the runner',
    write: false,
    expect: answers([401, 200, 200, 200, 403]),
  },
  {
    id: 'catalog.clusters',
    surface: 'catalog',
    route: 'GET /entities?filter=kind=resource,spec.type=kubernetes-cluster',
    rule: 'catalog.entity.read',
    write: false,
    expect: answers([401, 200, 200, 200, 403]),
  },
  {
    id: 'argocd.clusters',
    surface: 'argocd',
    route:
      "GET /argocd/api/v1/clusters (reaches Argo CD with the endpoint's token)",
    rule: 'signed in; GET only',
    write: false,
    expect: answers([401, 200, 200, 200, 403]),
  },
  {
    id: 'argocd.delete',
    surface: 'argocd',
    route: 'DELETE /argocd/api/v1/clusters/{server} (never reaches Argo CD)',
    rule: 'GET only',
    write: true,
    expect: answers([401, 404, 404, 404, 403]),
  },
  {
    id: 'argocd.post',
    surface: 'argocd',
    route: 'POST /argocd/api/v1/clusters (never reaches Argo CD)',
    rule: 'GET only',
    write: true,
    expect: answers([401, 404, 404, 404, 403]),
  },
  {
    id: 'argocd.other',
    surface: 'argocd',
    route:
      'GET /argocd/api/v1/applications (not the clusters API: never reaches Argo CD)',
    rule: 'the clusters API only',
    write: false,
    expect: answers([401, 404, 404, 404, 403]),
  },
];

/** Where each surface is mounted. */
export const SURFACE_BASES: Record<Surface, string> = {
  infrared: '/api/infrared',
  kubernetes: '/api/kubernetes',
  scaffolder: '/api/scaffolder',
  catalog: '/api/catalog',
  argocd: '/api/proxy',
};

/** The table's figures: rows, callers, cases. */
export function matrixFigures(rows: MatrixRow[] = PERMISSION_MATRIX) {
  return {
    routes: rows.length,
    callers: CALLERS.length,
    cases: rows.length * CALLERS.length,
  };
}

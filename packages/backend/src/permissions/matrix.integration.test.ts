import {
  eventually,
  getTestControlPlane,
  KubeClient as AdminClient,
  serverAlias,
  type ServerAlias,
  removeTestDir,
} from '@internal/devenv';
// The backend's own test set-up: deploy/ applied, the backend's ServiceAccount token.
// eslint-disable-next-line @backstage/no-relative-monorepo-imports
import { prepareManagementCluster } from '../../../../plugins/infrared-backend/src/clusters/__testUtils__/managementCluster';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startFakeArgoCd, productionProxyConfig } from './__testUtils__/argoCd';
import {
  CLUSTERS_TASK,
  SelectiveScheduler,
  startMatrixBackend,
  MATRIX_PROVIDER,
} from './__testUtils__/backend';
import { IDENTITIES, signIn } from './__testUtils__/callers';
import {
  bareCluster,
  cleanUp,
  createOrgAndProduct,
  isRegistered,
  releaseWithZone,
  setLastJob,
  ORG,
  ORG_NAMESPACE,
  snapshot,
  type World,
} from './__testUtils__/world';
import {
  CALLERS,
  matrixFigures,
  PERMISSION_MATRIX,
  type Caller,
  type MatrixRow,
} from './matrix';

jest.setTimeout(600_000);

/**
 * An answer as the summary prints it: a Secret list (the proxy's) only by its names, so that no
 * credential reaches the test output, whatever a failing row returns.
 */
function printable(text = ''): string {
  try {
    const body = JSON.parse(text);
    if (body?.kind === 'SecretList') {
      return `SecretList ${body.items.map((i: any) => i.metadata.name)}`;
    }
  } catch {
    // not JSON: printed as it is
  }
  return text.slice(0, 300);
}

/**
 * What a refused request by `caller` changed between two snapshots: objects made, removed or
 * changed. Left out, since the shared control plane's other backends act on them at any time:
 * objects of another caller's allowed writes (their names end with that caller), and OpenTofu
 * plan Jobs (every backend's provisioning reconciler starts one for each built Cluster; a refused
 * apply or destroy would show as a changed Cluster spec, and a Job it started as `-apply`).
 */
function changes(
  before: Record<string, string>,
  after: Record<string, string>,
  caller: Caller,
): string[] {
  const others = CALLERS.filter(c => c !== caller).map(
    c => `-${c.toLowerCase()}`,
  );
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])]
    .filter(k => !others.some(o => k.includes(`${o}-`) || k.endsWith(o)))
    .filter(k => !(k.startsWith('Job ') && k.endsWith('-plan')));
  return keys.flatMap(k => {
    if (!(k in before)) return [`made ${k}`];
    if (!(k in after)) return [`removed ${k}`];
    return before[k] === after[k] ? [] : [`changed ${k}`];
  });
}

const MANAGEMENT = 'infrared-mgmt';
/** The catalog module's full mutation: every Cluster to the catalog. */
const CATALOG_TASK = 'infrared-clusters:full-mutation';
const ARGO_TOKEN = `argocd-token-${crypto.randomBytes(8).toString('hex')}`;
const EXTERNAL_TOKEN = `matrix-external-${crypto
  .randomBytes(12)
  .toString('hex')}`;
const REPO = path.resolve(__dirname, '../../../..');

/**
 * The permission matrix (matrix.ts) on the real backend: every row as every caller, each answer
 * compared with the table, and for a refused write, what the admin clients see before and after.
 */
describe('the permission matrix on the real backend and the devenv control plane', () => {
  const cp = getTestControlPlane();
  const management = cp.cluster('management');
  const workloadInfo = cp.cluster('workload-a');
  // each registration of workload-a at an address of its own (kept open to the end: the proxy
  // rows reach it): one registration per API server (issue 23.1), and other test files register
  // workload-a at the same time
  const aliases: ServerAlias[] = [];
  const workloadKubeconfig = async () => {
    const alias = await serverAlias(cp, 'workload-a');
    aliases.push(alias);
    return alias.kubeconfig;
  };
  const run = `pm-${Date.now().toString(36)}`;
  const world: World = {
    run,
    management: AdminClient.fromKubeconfig(management.kubeconfig),
    workload: AdminClient.fromKubeconfig(workloadInfo.kubeconfig),
    product: `${run}-shop`,
    zone: `${run}-prod`,
  };
  const open = `${run}-open`;
  const closed = `${run}-closed`;
  const built = `${run}-built`;
  const keep = `${run}-keep`;
  const serviceId = `${run}-app`;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'permission-matrix-'));
  const scheduler = new SelectiveScheduler(
    new Set([CLUSTERS_TASK, CATALOG_TASK]),
  );
  const tokens: Partial<Record<Caller, string>> = {};
  const answers: Record<string, Partial<Record<Caller, number>>> = {};
  const details: Record<string, Partial<Record<Caller, string>>> = {};
  let base = '';
  let argo: Awaited<ReturnType<typeof startFakeArgoCd>>;

  const authHeader = (caller: Caller): Record<string, string> =>
    caller === 'anonymous' ? {} : { authorization: `Bearer ${tokens[caller]}` };

  /** One request as a caller; the answer's start is kept for the failure message. */
  async function call(
    caller: Caller,
    method: string,
    url: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<{ status: number; body: any; text: string }> {
    const res = await fetch(`${base}${url}`, {
      method,
      headers: {
        ...authHeader(caller),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed: any;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    return { status: res.status, body: parsed, text };
  }

  const entity = {
    apiVersion: 'backstage.io/v1alpha1',
    kind: 'Component',
    metadata: {
      name: serviceId,
      namespace: 'default',
      annotations: { 'backstage.io/kubernetes-id': serviceId },
    },
    spec: {
      type: 'service',
      lifecycle: 'experimental',
      owner: 'group:default/platform-admins',
    },
  };
  const lower = (c: Caller) => c.toLowerCase();
  const proxy = (cluster: string) => ({
    'backstage-kubernetes-cluster': cluster,
  });
  const namespace = (c: Caller, where: string) => ({
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: `${run}-${where}-${lower(c)}` },
  });

  /** Runs a template of the scaffolder as the caller: the task's end, as the status its action got. */
  async function scaffold(
    caller: Caller,
    template: string,
    values: Record<string, unknown>,
    ok: number,
  ) {
    const created = await call(caller, 'POST', '/api/scaffolder/v2/tasks', {
      templateRef: `template:default/${template}`,
      values,
      secrets: { kubeconfig: await workloadKubeconfig() },
    });
    if (created.status !== 201) return created;
    const id = created.body.id;
    const task = await eventually(
      async () => {
        const t = await call(caller, 'GET', `/api/scaffolder/v2/tasks/${id}`);
        return ['completed', 'failed', 'cancelled'].includes(t.body?.status)
          ? t.body
          : undefined;
      },
      90_000,
      250,
    );
    if (task.status === 'completed') return { status: ok, text: 'completed' };
    const events = await call(
      caller,
      'GET',
      `/api/scaffolder/v2/tasks/${id}/events`,
    );
    const messages = (events.body ?? [])
      .map((e: any) => e.body?.message)
      .filter(Boolean)
      .join('\n');
    const status = /Request failed with (\d{3})/.exec(messages)?.[1];
    return { status: status ? Number(status) : 500, text: messages };
  }

  type Exec = (c: Caller) => Promise<{ status: number; text?: string }>;
  const I = '/api/infrared';
  const EXECUTORS: Record<string, Exec> = {
    health: c => call(c, 'GET', `${I}/health`),
    'clusters.list': c => call(c, 'GET', `${I}/v1/clusters`),
    'clusters.get': c => call(c, 'GET', `${I}/v1/clusters/${open}`),
    'clusters.register': async c =>
      call(c, 'POST', `${I}/v1/clusters`, {
        name: `${run}-reg-${lower(c)}`,
        kubeconfig: await workloadKubeconfig(),
        flavor: 'k3s',
        provider: 'local',
      }),
    'clusters.build.apply': c =>
      call(c, 'POST', `${I}/v1/clusters`, {
        name: `${run}-apply-${lower(c)}`,
        provider: 'local',
        template: { module: 'local/demo-cluster', version: 'v1' },
        provision: {
          action: 'apply',
          variables: { name: `${run}-apply-${lower(c)}` },
        },
      }),
    'clusters.remove': async c => {
      if (c !== 'platformAdmin' && c !== 'external') {
        return call(c, 'DELETE', `${I}/v1/clusters/${keep}`);
      }
      const name = `${run}-rm-${lower(c)}`;
      await bareCluster(world, name);
      return call(c, 'DELETE', `${I}/v1/clusters/${name}`);
    },
    'provision.plan': c =>
      call(c, 'PUT', `${I}/v1/clusters/${built}/provision/action`, {
        action: 'plan',
      }),
    'provision.apply': c =>
      call(c, 'PUT', `${I}/v1/clusters/${built}/provision/action`, {
        action: 'apply',
      }),
    'provision.log': c =>
      call(c, 'GET', `${I}/v1/clusters/${built}/provision/log`),
    templates: c => call(c, 'GET', `${I}/v1/provisioning/templates`),
    orgs: c => call(c, 'GET', `${I}/v1/orgs`),
    'allowlist.get': c =>
      call(c, 'GET', `${I}/v1/orgs/${ORG}/cluster-allowlist`),
    'allowlist.put': c =>
      call(c, 'PUT', `${I}/v1/orgs/${ORG}/cluster-allowlist`, {
        clusters: [open, closed],
      }),
    zones: c => call(c, 'GET', `${I}/v1/zones`),
    placement: c =>
      call(
        c,
        'GET',
        `${I}/v1/products/${ORG_NAMESPACE}/${world.product}/placement`,
      ),
    'zone.cluster': c =>
      call(
        c,
        'PUT',
        `${I}/v1/products/${ORG_NAMESPACE}/${world.product}/zones/${world.zone}/cluster`,
        { cluster: open },
      ),
    'zone.approve': async c => {
      // an allowed caller approves a Release of its own; a refused one the shared Release
      let release = `${run}-rel`;
      if (c === 'orgAdmin' || c === 'platformAdmin' || c === 'external') {
        release = `${run}-rel-${lower(c)}`;
        await releaseWithZone(world, release, 'AwaitingApproval');
      }
      return call(
        c,
        'POST',
        `${I}/v1/products/${ORG_NAMESPACE}/${world.product}/releases/${release}/zones/${world.zone}/approval`,
      );
    },
    'zone.approve.healthy': c =>
      call(
        c,
        'POST',
        `${I}/v1/products/${ORG_NAMESPACE}/${world.product}/releases/${run}-rel-done/zones/${world.zone}/approval`,
      ),
    'kubernetes.clusters': async c => {
      const res = await call(c, 'GET', '/api/kubernetes/clusters');
      const names = (res.body?.items ?? []).map((i: any) => i.name);
      // the opted-in cluster is there; the management cluster is never (the backend's identity)
      if (
        res.status === 200 &&
        (!names.includes(open) || names.includes(MANAGEMENT))
      ) {
        return { status: 299, text: `clusters: ${names}` };
      }
      return res;
    },
    'kubernetes.services': async c => {
      const res = await call(
        c,
        'POST',
        `/api/kubernetes/services/${serviceId}`,
        {
          entity,
          auth: {},
        },
      );
      const mine = (res.body?.items ?? []).find(
        (i: any) => i.cluster?.name === open,
      );
      const found = (mine?.resources ?? []).flatMap((r: any) =>
        r.resources.map((o: any) => `${r.type}/${o.metadata.name}`),
      );
      // the tab reads the cluster: its ConfigMap, no error
      if (
        res.status === 200 &&
        (mine?.errors?.length || !found.includes(`configmaps/${serviceId}`))
      ) {
        return {
          status: 299,
          text: JSON.stringify(mine ?? res.body).slice(0, 300),
        };
      }
      return res;
    },
    'kubernetes.proxy.workload.secrets': c =>
      call(
        c,
        'GET',
        '/api/kubernetes/proxy/api/v1/namespaces/kube-system/secrets',
        undefined,
        proxy(open),
      ),
    'kubernetes.proxy.workload.namespace': c =>
      call(
        c,
        'POST',
        '/api/kubernetes/proxy/api/v1/namespaces',
        namespace(c, 'wl'),
        proxy(open),
      ),
    'kubernetes.proxy.closed.secrets': c =>
      call(
        c,
        'GET',
        '/api/kubernetes/proxy/api/v1/namespaces/kube-system/secrets',
        undefined,
        proxy(closed),
      ),
    'kubernetes.proxy.management.secrets': c =>
      call(
        c,
        'GET',
        '/api/kubernetes/proxy/api/v1/namespaces/infrared/secrets',
        undefined,
        proxy(MANAGEMENT),
      ),
    'kubernetes.proxy.management.namespace': c =>
      call(
        c,
        'POST',
        '/api/kubernetes/proxy/api/v1/namespaces',
        namespace(c, 'mg'),
        proxy(MANAGEMENT),
      ),
    'scaffolder.register': c =>
      scaffold(c, `${run}-register`, { name: `${run}-sr-${lower(c)}` }, 201),
    'scaffolder.build': c =>
      scaffold(c, `${run}-build`, { name: `${run}-sb-${lower(c)}` }, 201),
    'scaffolder.wait': c => scaffold(c, `${run}-wait`, { name: open }, 200),
    'catalog.clusters': async c => {
      const res = await call(
        c,
        'GET',
        '/api/catalog/entities?filter=kind=resource,spec.type=kubernetes-cluster',
      );
      const names = (res.status === 200 ? res.body : []).map(
        (e: any) => e.metadata.name,
      );
      // a reader sees the Cluster Resources themselves, not an empty answer
      if (res.status === 200 && !names.includes(open)) {
        return { status: 299, text: `no Resource ${open}: ${names}` };
      }
      return res;
    },
    'argocd.clusters': c => call(c, 'GET', '/api/proxy/argocd/api/v1/clusters'),
    'argocd.delete': c =>
      call(
        c,
        'DELETE',
        `/api/proxy/argocd/api/v1/clusters/${encodeURIComponent(
          'https://203.0.113.10:6443',
        )}`,
      ),
    'argocd.post': c =>
      call(c, 'POST', '/api/proxy/argocd/api/v1/clusters', {
        server: 'https://203.0.113.10:6443',
        name: 'evil',
      }),
    'argocd.other': c =>
      call(c, 'GET', '/api/proxy/argocd/api/v1/applications'),
  };

  function templates(): string {
    const step = (action: string, input: Record<string, unknown>) => ({
      id: 'run',
      name: action,
      action,
      input,
    });
    const template = (name: string, s: unknown) => ({
      apiVersion: 'scaffolder.backstage.io/v1beta3',
      kind: 'Template',
      metadata: { name },
      spec: {
        owner: 'group:default/platform-admins',
        type: 'service',
        parameters: [{ properties: { name: { type: 'string' } } }],
        steps: [s],
      },
    });
    const file = path.join(tmp, 'templates.yaml');
    const name = '${{ parameters.name }}';
    fs.writeFileSync(
      file,
      [
        template(
          `${run}-register`,
          step('infrared:cluster:register', {
            name,
            flavor: 'k3s',
            provider: 'local',
          }),
        ),
        template(
          `${run}-build`,
          step('infrared:cluster:build', {
            name,
            template: 'local/demo-cluster@v1',
            provider: 'local',
          }),
        ),
        template(
          `${run}-wait`,
          step('infrared:cluster:wait', { name, timeoutSeconds: 30 }),
        ),
        // the entity whose Kubernetes tab the kubernetes.services row loads
        entity,
      ]
        .map(t => JSON.stringify(t))
        .join('\n---\n'),
    );
    return file;
  }

  async function config(backendKubeconfig: string) {
    return {
      app: { baseUrl: 'http://localhost:3000' },
      backend: {
        auth: {
          externalAccess: [
            {
              type: 'static',
              options: {
                token: EXTERNAL_TOKEN,
                subject: 'infrared-api-client',
              },
              accessRestrictions: [{ plugin: 'infrared' }],
            },
          ],
        },
      },
      auth: { providers: { [MATRIX_PROVIDER]: { development: {} } } },
      permission: { enabled: true },
      proxy: await productionProxyConfig({
        ARGOCD_URL: argo.url,
        ARGOCD_TOKEN: ARGO_TOKEN,
      }),
      catalog: {
        rules: [{ allow: ['Component', 'Resource', 'Template', 'Location'] }],
        locations: [{ type: 'file', target: templates() }],
      },
      kubernetes: {
        serviceLocatorMethod: { type: 'multiTenant' },
        clusterLocatorMethods: [{ type: 'config', clusters: [] }],
      },
      infrared: {
        managementCluster: {
          name: MANAGEMENT,
          kubeconfigPath: backendKubeconfig,
        },
        gitops: { type: 'local', path: path.join(tmp, 'gitops.git') },
        registrar: { enabled: false },
        kubernetes: { skipMetricsLookup: true, proxy: { clusters: [open] } },
        platformAdmins: {
          groups: ['group:default/platform-admins'],
          allowGuest: false,
        },
        provisioning: {
          templates: [
            {
              module: 'local/demo-cluster',
              version: 'v1',
              title: 'Demo cluster',
              source: path.join(REPO, 'examples/tofu/demo-cluster'),
              variables: [{ name: 'name', title: 'Name' }],
            },
          ],
        },
      },
    };
  }

  beforeAll(async () => {
    argo = await startFakeArgoCd();
    const backendKubeconfig = path.join(tmp, 'backend.kubeconfig');
    fs.writeFileSync(
      backendKubeconfig,
      await prepareManagementCluster(management),
    );
    const backend = await startMatrixBackend({
      scheduler,
      config: await config(backendKubeconfig),
    });
    base = `http://127.0.0.1:${backend.server.port()}`;
    tokens.external = EXTERNAL_TOKEN;
    for (const [caller, identity] of Object.entries(IDENTITIES)) {
      tokens[caller as Caller] = await signIn(base, identity);
    }
    // the clusters every row reads: two names for workload-a (one opted in to the proxy), a built one
    for (const name of [open, closed]) {
      const res = await call('platformAdmin', 'POST', `${I}/v1/clusters`, {
        name,
        kubeconfig: await workloadKubeconfig(),
        flavor: 'k3s',
        provider: 'local',
      });
      if (res.status !== 201) {
        throw new Error(
          `registering ${name} answered ${res.status}: ${res.text}`,
        );
      }
    }
    const builtRes = await call('platformAdmin', 'POST', `${I}/v1/clusters`, {
      name: built,
      provider: 'local',
      template: { module: 'local/demo-cluster', version: 'v1' },
      provision: { action: 'plan', variables: { name: built } },
    });
    if (builtRes.status !== 201) {
      throw new Error(
        `making ${built} answered ${builtRes.status}: ${builtRes.text}`,
      );
    }
    await setLastJob(world, built, `${run}-plan`);
    // what the entity's Kubernetes tab finds on workload-a: a ConfigMap labelled with its id
    await world.workload.must('POST', '/api/v1/namespaces', {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: serviceId },
    });
    await world.workload.must(
      'POST',
      `/api/v1/namespaces/${serviceId}/configmaps`,
      {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: {
          name: serviceId,
          labels: { 'backstage.io/kubernetes-id': serviceId },
        },
        data: { greeting: 'hello' },
      },
    );
    await bareCluster(world, keep);
    await createOrgAndProduct(world, [open, closed]);
    await releaseWithZone(world, `${run}-rel`, 'AwaitingApproval');
    await releaseWithZone(world, `${run}-rel-done`, 'Healthy');
    await eventually(
      async () => {
        await scheduler.triggerTask(CLUSTERS_TASK);
        return (
          (await isRegistered(world, open)) &&
          (await isRegistered(world, closed)) &&
          (await isRegistered(world, MANAGEMENT))
        );
      },
      120_000,
      500,
    );
    // the scaffolder reads its templates from the catalog; the Clusters are Resources there
    await scheduler.triggerTask(CATALOG_TASK);
    await eventually(
      async () =>
        (
          await call(
            'platformAdmin',
            'GET',
            `/api/catalog/entities/by-name/template/default/${run}-wait`,
          )
        ).status === 200 &&
        (
          await call(
            'platformAdmin',
            'GET',
            `/api/catalog/entities/by-name/component/default/${serviceId}`,
          )
        ).status === 200 &&
        (await EXECUTORS['catalog.clusters']('platformAdmin')).status === 200,
      120_000,
      500,
    );
  });

  afterAll(async () => {
    scheduler.stop();
    await Promise.all(aliases.map(a => a.close()));
    const figures = matrixFigures();
    const failed = Object.entries(answers).flatMap(([id, got]) => {
      const row = PERMISSION_MATRIX.find(r => r.id === id)!;
      return CALLERS.filter(c => got[c] !== row.expect[c]).map(
        c =>
          `${id} as ${c}: expected ${row.expect[c]}, got ${got[c]}: ${details[
            id
          ]?.[c]?.slice(0, 200)}`,
      );
    });
    const ran = Object.values(answers).reduce(
      (n, got) => n + Object.keys(got).length,
      0,
    );
    // eslint-disable-next-line no-console
    console.log(
      [
        `permission matrix: ${figures.routes} routes x ${
          figures.callers
        } callers = ${figures.cases} cases; ${ran} run, ${
          ran - failed.length
        } as the table says, ${failed.length} not`,
        `${'row'.padEnd(40)} ${CALLERS.map(c => c.padEnd(13)).join(' ')}`,
        ...PERMISSION_MATRIX.map(
          row =>
            `${row.id.padEnd(40)} ${CALLERS.map(c =>
              String(answers[row.id]?.[c] ?? '-').padEnd(13),
            ).join(' ')}`,
        ),
        ...failed,
      ].join('\n'),
    );
    await cleanUp(world).catch(() => undefined);
    await argo?.stop();
    removeTestDir(tmp);
  });

  it('has an executor for every row and a row for every executor', () => {
    expect(Object.keys(EXECUTORS).sort()).toEqual(
      PERMISSION_MATRIX.map(r => r.id).sort(),
    );
  });

  it.each(PERMISSION_MATRIX.map(row => [row.id, row] as const))(
    '%s',
    async (_id, row: MatrixRow) => {
      const got: Partial<Record<Caller, number>> = {};
      const unwritten: string[] = [];
      // what reached the fake Argo CD beyond what the row allows
      const argoMismatches: string[] = [];
      answers[row.id] = got;
      details[row.id] = {};
      for (const caller of CALLERS) {
        const refusedWrite = row.write && row.expect[caller] >= 400;
        const before = refusedWrite ? await snapshot(world) : undefined;
        const argoBefore = argo.requests.length;
        const res = await EXECUTORS[row.id](caller);
        got[caller] = res.status;
        details[row.id]![caller] = printable(res.text);
        if (before) {
          const after = await snapshot(world);
          unwritten.push(
            ...changes(before, after, caller).map(c => `${caller}: ${c}`),
          );
        }
        if (row.surface === 'argocd') {
          const allowed = row.id === 'argocd.clusters' && res.status === 200;
          const want = allowed
            ? [
                {
                  method: 'GET',
                  path: '/api/v1/clusters',
                  authorization: `Bearer ${ARGO_TOKEN}`,
                },
              ]
            : [];
          const reached = argo.requests.slice(argoBefore);
          if (JSON.stringify(reached) !== JSON.stringify(want)) {
            argoMismatches.push(`${caller}: ${JSON.stringify(reached)}`);
          }
        }
      }
      // one expectation, so a failure shows every caller's answer, write and Argo CD request
      expect({ answers: got, unwritten, argo: argoMismatches }).toEqual({
        answers: row.expect,
        unwritten: [],
        argo: [],
      });
    },
  );
});

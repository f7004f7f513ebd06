/*
 * The Argo CD benchmark (run through run.js, which loads TypeScript with Backstage's node transform).
 * A real Infrared backend (startTestBackend, the plugin's own routes, reconciler, release gate and
 * local gitops publisher) and a real Argo CD v3.6.1 (devenv's startArgoCd: repo-server,
 * application-controller, argocd-server, redis, a loopback git daemon serving the gitops
 * repository) on a control plane of its own (management + workload-a), as the integration tests
 * run them (plugins/infrared-backend/src/__testUtils__/argoCdBackend.ts).
 *
 * (a) POST /v1/clusters -> Argo CD's GET /api/v1/clusters reports the cluster Successful, over
 *     --runs registrations (at most 6), each on a server Argo CD has never seen: workload-a, -b and
 *     -c, by 127.0.0.1 and by localhost. Goal: p50 <= 5 s.
 * (b) A zone's merge (the gate pass that published the zone Application, merged at once by the
 *     local publisher) -> Argo CD reports the Application Synced and Healthy (GET
 *     /api/v1/applications/<name>). The file goes through the app-of-apps registry-<cluster>, so
 *     two syncs. Goal: <= 30 s with Argo CD's refresh set for tests (--app-resync, --resync).
 *     Measured twice: polling alone, and with `argocd.argoproj.io/refresh: normal` set on the
 *     gitops repository's Applications right after the merge, as Argo CD's git webhook does.
 */
import { uniqueName } from '../../packages/devenv/src';
import {
  startArgoCdBackend,
  type ArgoCdBackend,
} from '../../plugins/infrared-backend/src/__testUtils__/argoCdBackend';
import { LocalGitPublisher } from '../../plugins/infrared-backend/src/gitops';
import {
  tokenKubeconfig,
  withServer,
} from '../../plugins/infrared-backend/src/kube/__testUtils__/workload';
import { zoneSourcePath } from '../../plugins/infrared-backend/src/placement/application';
import { RELEASE_GATE_TASK_ID } from '../../plugins/infrared-backend/src/placement/createPlacement';

const RECONCILE = 'infrared-clusters-reconcile';
const API = '/apis/infrared.darkshift.io/v1alpha1';
const ARGO = '/apis/argoproj.io/v1alpha1/namespaces/argocd';
const GOAL_SUCCESSFUL_S = 5;
const GOAL_HEALTHY_S = 30;

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
}
const sleep = (ms: number) => new Promise(r => setTimeout(r, ms));
const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[
    Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)
  ];
};
function summary(label: string, values: number[], goalS: number) {
  const p50 = percentile(values, 50);
  console.log(
    `  ${label}: p50 ${secs(p50)}  min ${secs(Math.min(...values))}  max ${secs(
      Math.max(...values),
    )}  (${values.map(secs).join(', ')})  goal <= ${goalS} s: ${
      p50 <= goalS * 1000 ? 'met' : 'MISSED'
    }`,
  );
}

async function until<T>(
  what: string,
  probe: () => Promise<T | undefined | false>,
  timeoutMs: number,
  everyMs = 200,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const got = await probe().catch(() => undefined);
    if (got) return got;
    if (Date.now() > deadline)
      throw new Error(`${what}: not in ${timeoutMs} ms`);
    await sleep(everyMs);
  }
}

/**
 * The servers a run registers: each workload cluster by 127.0.0.1 and by localhost (both in its
 * certificate), so that every run is a server Argo CD has never seen. Argo CD keeps a server's
 * connection state (redis) after its cluster Secret goes: a re-registered server reports
 * Successful at once (0.3 s here), which would not be a new cluster's figure.
 */
function freshServers(w: ArgoCdBackend, clusters: string[]): string[][] {
  const out: string[][] = [];
  for (const host of ['127.0.0.1', 'localhost']) {
    for (const c of clusters) {
      const server = w.cp.cluster(c).server.replace('127.0.0.1', host);
      out.push([c, server]);
    }
  }
  return out;
}

/** (a) POST -> Successful, each run a cluster on a server Argo CD has not seen. */
async function registrations(
  w: ArgoCdBackend,
  runs: number,
  workloads: string[],
): Promise<string> {
  const toSuccessful: Record<string, number[]> = { poll: [], webhook: [] };
  const toRegistered: number[] = [];
  const toComponent: number[] = [];
  const servers = freshServers(w, workloads);
  if (runs > servers.length) {
    throw new Error(`--runs ${runs}: at most ${servers.length} fresh servers`);
  }
  let first = '';
  for (let i = 0; i < runs; i++) {
    const [cluster, server] = servers[i];
    const webhook = i % 2 === 1;
    const name = uniqueName('bench-argo');
    const kubeconfig = withServer(
      await tokenKubeconfig(w.cp.cluster(cluster), name, 'cluster-admin'),
      server,
    );
    const t0 = Date.now();
    const posted = await w.send('post', '/v1/clusters', { name, kubeconfig });
    if (posted.status !== 201) {
      throw new Error(`POST answered ${posted.status}: ${posted.text}`);
    }
    let registeredAt = 0;
    // Argo CD connected and applied the cluster's own component (infrared-<name>) on it
    let componentAt = 0;
    await until(
      `${name} Successful in Argo CD`,
      async () => {
        if (!registeredAt) {
          const v = (await w.send('get', `/v1/clusters/${name}`)).body;
          const reg = v.conditions?.find((c: any) => c.type === 'Registered');
          if (reg?.status === 'True') {
            registeredAt = Date.now();
            // merged: a git webhook would now refresh the repository's Applications
            if (webhook) await refreshRepoApplications(w);
          }
        }
        if (!componentAt) {
          const app = await w.argoGet(`/api/v1/applications/infrared-${name}`);
          const st = app.body?.status;
          if (
            st?.sync?.status === 'Synced' &&
            st?.health?.status === 'Healthy'
          ) {
            componentAt = Date.now();
          }
        }
        const c = await w.argoCluster(name);
        return c?.info?.connectionState?.status === 'Successful';
      },
      180_000,
    ).catch(async e => {
      throw new Error(
        `${e.message}; Argo CD's cluster: ${JSON.stringify(
          (await w.argoCluster(name))?.info,
        )}; Applications: ${await w.applicationsSummary()}`,
      );
    });
    toSuccessful[webhook ? 'webhook' : 'poll'].push(Date.now() - t0);
    toRegistered.push((registeredAt || Date.now()) - t0);
    toComponent.push((componentAt || Date.now()) - t0);
    console.log(
      `  run ${i + 1} (${server}, ${
        webhook ? 'refresh annotation' : 'polling'
      }): Registered ${secs(registeredAt - t0)}, Successful ${secs(
        Date.now() - t0,
      )}`,
    );
    first ||= name;
  }
  console.log(
    `\n(a) POST /v1/clusters -> Argo CD reports Successful (${runs} runs, each a new server):`,
  );
  summary('POST -> Registered (Infrared)', toRegistered, GOAL_SUCCESSFUL_S);
  summary(
    'POST -> the cluster component Synced+Healthy (Argo CD connected)',
    toComponent,
    GOAL_SUCCESSFUL_S,
  );
  summary(
    'POST -> Successful (Argo CD), polling',
    toSuccessful.poll,
    GOAL_SUCCESSFUL_S,
  );
  if (toSuccessful.webhook.length) {
    summary(
      'POST -> Successful (Argo CD), refresh annotation after the merge (a git webhook)',
      toSuccessful.webhook,
      GOAL_SUCCESSFUL_S,
    );
  }
  return first;
}

/** Sets `argocd.argoproj.io/refresh: normal` on every Application of the gitops repository (the webhook's effect). */
async function refreshRepoApplications(w: ArgoCdBackend): Promise<void> {
  const admin = w.admin('management');
  const apps = (await admin.must('GET', `${ARGO}/applications`)).body.items;
  await Promise.all(
    apps
      .filter((a: any) => a.spec?.source?.repoURL === w.gitopsUrl)
      .map((a: any) =>
        admin.must(
          'PATCH',
          `${ARGO}/applications/${a.metadata.name}`,
          {
            metadata: {
              annotations: { 'argocd.argoproj.io/refresh': 'normal' },
            },
          },
          [],
          'application/merge-patch+json',
        ),
      ),
  );
}

/** (b) One zone of a new Product on `cluster`: merge -> Argo CD reports it Synced and Healthy. */
async function zoneRun(
  w: ArgoCdBackend,
  ns: string,
  cluster: string,
  webhook: boolean,
): Promise<{ merged: number; healthy: number; gateHealthy: number }> {
  const admin = w.admin('management');
  const product = uniqueName('bz').slice(-10);
  const zone = `z-${product}`;
  const release = `${product}-v1`;
  await admin.must('POST', `${API}/namespaces/${ns}/products`, {
    apiVersion: 'infrared.darkshift.io/v1alpha1',
    kind: 'Product',
    metadata: { name: product, namespace: ns },
    spec: {
      displayName: product,
      repos: [{ name: product }],
      delivery: { zones: [{ name: zone, cluster, approval: 'auto' }] },
    },
  });
  // Content at the Application's path, in case the gate writes none.
  await new LocalGitPublisher({ path: w.gitopsRepo }).publish({
    key: `bench-${zone}`,
    title: `bench content ${zone}`,
    body: '',
    files: {
      [`${zoneSourcePath(product, {
        name: zone,
        cluster,
      })}/bench.yaml`]: `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${product}-bench\ndata:\n  bench: argocd\n`,
    },
  });
  await admin.must('POST', `${API}/namespaces/${ns}/releases`, {
    apiVersion: 'infrared.darkshift.io/v1alpha1',
    kind: 'Release',
    metadata: { name: release, namespace: ns },
    spec: { productRef: { name: product }, version: 'v1.0.0' },
  });
  await admin.must(
    'PATCH',
    `${API}/namespaces/${ns}/releases/${release}/status`,
    { status: { phase: 'Promoting' } },
    [],
    'application/merge-patch+json',
  );
  const zoneStatus = async () =>
    (
      await admin.must('GET', `${API}/namespaces/${ns}/releases/${release}`)
    ).body.status?.zones?.find((z: any) => z.name === zone);
  const t0 = Date.now();
  await w.scheduler.triggerTask(RELEASE_GATE_TASK_ID);
  const after = await zoneStatus();
  if (after?.phase !== 'Syncing') {
    throw new Error(`zone ${zone} not merged: ${JSON.stringify(after)}`);
  }
  const merged = Date.now();
  if (webhook) await refreshRepoApplications(w);
  const appName = `product-${zone}`;
  await until(
    `${appName} Synced and Healthy`,
    async () => {
      const res = await w.argoGet(`/api/v1/applications/${appName}`);
      const s = res.body?.status;
      return (
        res.status === 200 &&
        s?.sync?.status === 'Synced' &&
        s?.health?.status === 'Healthy'
      );
    },
    240_000,
    250,
  ).catch(async e => {
    throw new Error(`${e.message}: ${await w.applicationsSummary()}`);
  });
  const healthy = Date.now();
  // The gate also waits for Argo CD's sync operation to end (its status, not only sync/health).
  await until(
    `the gate sees ${zone} Healthy`,
    async () => {
      await w.scheduler.triggerTask(RELEASE_GATE_TASK_ID);
      return (await zoneStatus())?.phase === 'Healthy';
    },
    120_000,
    250,
  ).catch(async e => {
    throw new Error(`${e.message}: ${JSON.stringify(await zoneStatus())}`);
  });
  return {
    merged: merged - t0,
    healthy: healthy - merged,
    gateHealthy: Date.now() - merged,
  };
}

async function zones(w: ArgoCdBackend, cluster: string, n: number) {
  const admin = w.admin('management');
  const org = uniqueName('bench-org').slice(0, 40);
  const ns = `ir-org-${org}`;
  await admin.must('POST', `${API}/organizations`, {
    apiVersion: 'infrared.darkshift.io/v1alpha1',
    kind: 'Organization',
    metadata: { name: org },
    spec: { displayName: 'bench', clusterAllowlist: [cluster] },
  });
  await admin.must('POST', '/api/v1/namespaces', {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: ns },
  });
  // The bootstrap's products AppProject, with the cluster's zones allowed (the card's fix).
  const project = (await admin.must('GET', `${ARGO}/appprojects/products`))
    .body;
  await admin.must(
    'PATCH',
    `${ARGO}/appprojects/products`,
    {
      metadata: { resourceVersion: project.metadata.resourceVersion },
      spec: {
        destinations: [
          ...(project.spec.destinations ?? []),
          { name: cluster, namespace: '*' },
        ],
        clusterResourceWhitelist: [{ group: '', kind: 'Namespace' }],
      },
    },
    [],
    'application/merge-patch+json',
  );
  const results: Record<string, number[]> = { poll: [], webhook: [] };
  for (let i = 0; i < 2 * n; i++) {
    const webhook = i % 2 === 1;
    const r = await zoneRun(w, ns, cluster, webhook);
    results[webhook ? 'webhook' : 'poll'].push(r.healthy);
    console.log(
      `  zone ${i + 1} (${
        webhook ? 'refresh annotation' : 'polling'
      }): gate pass ${secs(r.merged)}, merge -> Argo CD Synced+Healthy ${secs(
        r.healthy,
      )} (gate Healthy ${secs(r.gateHealthy)})`,
    );
  }
  console.log(
    `\n(b) zone merge -> Argo CD reports Synced and Healthy (${n} zones each):`,
  );
  summary('polling (--app-resync only)', results.poll, GOAL_HEALTHY_S);
  summary(
    'refresh annotation after the merge (a git webhook)',
    results.webhook,
    GOAL_HEALTHY_S,
  );
}

export async function main(): Promise<void> {
  const runs = arg('runs', 5);
  const n = arg('zones', 3);
  const resync = arg('resync', 10);
  const started = Date.now();
  const workloads = ['workload-a', 'workload-b', 'workload-c'];
  const w = await startArgoCdBackend({
    resyncSeconds: resync,
    clusters: ['management', ...workloads],
  });
  try {
    console.log(
      `control plane, Argo CD and backend up in ${secs(Date.now() - started)}${
        w.builtSeconds ? ` (Argo CD built in ${w.builtSeconds} s)` : ''
      }; devenv's startArgoCd: application-controller --app-resync ${resync} --app-resync-jitter 0, repo-server --revision-cache-expiration ${resync}s`,
    );
    await w.scheduler.triggerTask(RECONCILE);
    await w.createRootApplication();
    console.log('');
    const cluster = await registrations(w, runs, workloads);
    console.log('');
    await zones(w, cluster, n);
  } finally {
    await w.stop();
  }
}

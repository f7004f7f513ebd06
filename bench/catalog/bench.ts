/*
 * The catalog entity provider benchmark (run through run.js). N Clusters (default 1,000) made as
 * custom resources on the management API server, each with its kubeconfig Secret (labelled as
 * Infrared labels the ones it makes), no workload API server behind them; registered as Infrared
 * registers them (its Argo CD cluster Secret in argocd, status.argoSecret and argoServer) unless
 * `--unregistered`. A test backend runs the
 * catalog backend (SQLite in memory) with the provider; the bench calls its full mutation: the first
 * (every entity new), then three with nothing changed (median), and a delta for one Cluster. Prints
 * the wall time of each against the anchor (a full mutation <= 2 s), the management API requests,
 * and how long the catalog took to have every Resource queryable (processing and stitching, after
 * the mutation; not the provider's time).
 */
import { createBackendModule } from '@backstage/backend-plugin-api';
import {
  mockCredentials,
  mockServices,
  startTestBackend,
} from '@backstage/backend-test-utils';
import { databaseServiceFactory } from '@backstage/backend-defaults/database';
import catalogPlugin from '@backstage/plugin-catalog-backend';
import { catalogProcessingExtensionPoint } from '@backstage/plugin-catalog-node';
import fs from 'node:fs';
import os from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import {
  installCrds,
  KubeClient as AdminClient,
  openControlPlane,
  startControlPlane,
  startPostgres,
  type ControlPlane,
  type LocalPostgres,
} from '../../packages/devenv/src';
import {
  argoClusterSecret,
  argoConnectionFor,
  argoSecretName,
  CLUSTER_NAME_LABEL,
  inspectKubeconfig,
} from '../../plugins/infrared-common/src';
import {
  KubeClient,
  kubeConfigFromText,
  managementApi,
  renderKubeconfig,
} from '../../plugins/infrared-kube/src';
import {
  InfraredClusterEntityProvider,
  type MutationSummary,
} from '../../plugins/catalog-backend-module-infrared/src';
import { readAllClusters } from '../../plugins/catalog-backend-module-infrared/src/provider';
import { argoSecretEndpoint } from '../../plugins/catalog-backend-module-infrared/src/entities/argoEndpoint';

const ROOT = path.resolve(__dirname, '../..');
const API = '/apis/infrared.darkshift.io/v1alpha1';
/** The anchor at 1,000 Clusters; issue 25's goal at 10,000 is 10 s. */
const MAX_MS = 2000;
const GOAL_10K_MS = 10_000;
const RUN_LABEL = 'bench.infrared.darkshift.io/run';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
}

async function pool<T>(items: T[], n: number, fn: (t: T) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: n }, async () => {
      while (next < items.length) await fn(items[next++]);
    }),
  );
}

const quiet = {
  debug() {},
  info() {},
  warn(m: string) {
    process.stderr.write(`warn: ${m}\n`);
  },
  error(m: string) {
    process.stderr.write(`error: ${m}\n`);
  },
  child() {
    return quiet;
  },
} as any;

/** The CRDs, wherever the repository keeps them (deploy/crds, or the Helm chart's crds/). */
function crdsDir(): string {
  const dirs = [
    path.join(ROOT, 'deploy', 'helm', 'infrared-clusters', 'crds'),
    path.join(ROOT, 'deploy', 'crds'),
  ];
  const found = dirs.find(d => fs.existsSync(path.join(d, 'clusters.yaml')));
  if (!found) throw new Error(`no Cluster CRD in ${dirs.join(' or ')}`);
  return found;
}

/**
 * A kubeconfig as `renderKubeconfig` writes it (YAML), or with `--kubeconfig-format json` as
 * `kubectl config view --raw -o json` prints it (read without the YAML parser, -common's JSON path).
 */
function kubeconfigText(name: string, caData: string): string {
  const yamlText = renderKubeconfig(name, {
    server: `https://${name}.bench.invalid:6443`,
    caData,
    token: `bench-token-${name}`,
  });
  return arg('kubeconfig-format') === 'json'
    ? JSON.stringify(parseYaml(yamlText), null, 4)
    : yamlText;
}

/**
 * What Infrared's registration writes for a Cluster that answered (plan/argoSecret.ts of the
 * backend): its Argo CD cluster Secret, from the kubeconfig as the probe resolved it, and the status
 * naming that Secret and its server.
 */
async function register(
  admin: AdminClient,
  name: string,
  kubeconfig: string,
  run: string,
) {
  const inspection = inspectKubeconfig(kubeconfig, {
    refuseInClusterServer: true,
  });
  if (!inspection.ok) throw new Error(`bench kubeconfig refused: ${name}`);
  const argo = argoConnectionFor(inspection);
  if (!argo.ok) throw new Error(`bench server refused: ${name}`);
  const secret = argoClusterSecret({
    clusterName: name,
    server: argo.server,
    argoConfig: argo.config,
    labels: { [CLUSTER_NAME_LABEL]: name, [RUN_LABEL]: run },
  });
  await admin.must('POST', '/api/v1/namespaces/argocd/secrets', secret);
  await admin.must(
    'PATCH',
    `${API}/clusters/${name}/status`,
    { status: { argoSecret: argoSecretName(name), argoServer: argo.server } },
    [],
    'application/merge-patch+json',
  );
}

async function setUp(cp: ControlPlane, n: number, run: string) {
  const management = cp.cluster('management');
  const admin = AdminClient.fromKubeconfig(management.kubeconfig);
  await installCrds(management, crdsDir());
  await admin.createIfAbsent('/api/v1/namespaces', {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: 'infrared' },
  });
  await admin.createIfAbsent('/api/v1/namespaces', {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: 'argocd' },
  });
  const registered = !process.argv.includes('--unregistered');
  const names = Array.from(
    { length: n },
    (_, i) => `bench-${run}-${String(i).padStart(4, '0')}`,
  );
  await pool(names, 16, async name => {
    const secretName = `cluster-${name}-kubeconfig`;
    const kubeconfig = kubeconfigText(name, management.caData);
    await admin.must('POST', '/api/v1/namespaces/infrared/secrets', {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: {
        name: secretName,
        namespace: 'infrared',
        labels: {
          'app.kubernetes.io/managed-by': 'infrared',
          'infrared.darkshift.io/cluster': name,
          [RUN_LABEL]: run,
        },
      },
      stringData: { kubeconfig },
    });
    await admin.must('POST', `${API}/clusters`, {
      apiVersion: 'infrared.darkshift.io/v1alpha1',
      kind: 'Cluster',
      metadata: { name, labels: { [RUN_LABEL]: run } },
      spec: {
        type: 'workload',
        flavor: 'k3s',
        provider: 'local',
        connection: {
          kubeconfigSecretRef: { name: secretName, key: 'kubeconfig' },
        },
      },
    });
    if (registered) await register(admin, name, kubeconfig, run);
  });
  return names;
}

async function cleanUp(cp: ControlPlane, run: string) {
  const admin = AdminClient.fromKubeconfig(cp.cluster('management').kubeconfig);
  const selector = encodeURIComponent(`${RUN_LABEL}=${run}`);
  await admin.request('DELETE', `${API}/clusters?labelSelector=${selector}`);
  for (const ns of ['infrared', 'argocd']) {
    await admin.request(
      'DELETE',
      `/api/v1/namespaces/${ns}/secrets?labelSelector=${selector}`,
    );
  }
}

/**
 * The catalog backend with the provider, whose full mutation the bench calls itself: on SQLite in
 * memory, or on a local PostgreSQL (what production runs).
 */
async function startCatalog(
  provider: InfraredClusterEntityProvider,
  postgres?: LocalPostgres,
) {
  const benchModule = createBackendModule({
    pluginId: 'catalog',
    moduleId: 'infrared-bench',
    register(env) {
      env.registerInit({
        deps: { catalog: catalogProcessingExtensionPoint },
        async init({ catalog }) {
          catalog.addEntityProvider(provider);
        },
      });
    },
  });
  return startTestBackend({
    features: [
      catalogPlugin,
      benchModule,
      ...(postgres
        ? [
            databaseServiceFactory,
            mockServices.rootConfig.factory({
              data: {
                backend: {
                  database: { client: 'pg', connection: postgres.connection },
                },
              },
            }),
          ]
        : [mockServices.rootConfig.factory({ data: {} })]),
    ],
  });
}

/** How many cluster Resources the catalog answers with. */
async function resourceCount(port: number): Promise<number> {
  const res = await fetch(
    `http://127.0.0.1:${port}/api/catalog/entities/by-query?filter=kind=resource,spec.type=kubernetes-cluster&limit=1`,
    { headers: { Authorization: mockCredentials.user.header() } },
  );
  if (!res.ok) throw new Error(`catalog query: ${res.status}`);
  return (await res.json()).totalItems;
}

interface Timed {
  s: MutationSummary;
  /** The process's event loop delay during the mutation (the catalog runs in this process too). */
  loop: string;
}

/** A mutation, with how long this process's event loop was held meanwhile (mean, max). */
async function timed(mutation: () => Promise<MutationSummary>): Promise<Timed> {
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const s = await mutation();
  delay.disable();
  const ms = (ns: number) => (ns / 1e6).toFixed(0);
  // too short a mutation for one sample (resolution 10 ms): nothing to say
  if (!delay.count) return { s, loop: 'loop delay not sampled' };
  return {
    s,
    loop: `loop delay mean ${ms(delay.mean)} max ${ms(delay.max)} ms`,
  };
}

function line(label: string, { s, loop }: Timed, requests: string) {
  console.log(
    `  ${label.padEnd(26)} ${String(s.added).padStart(
      5,
    )} entities  ${requests.padEnd(8)} read ${String(s.readMs).padStart(
      5,
    )} ms  wall ${String(s.durationMs).padStart(6)} ms  (load ${os
      .loadavg()[0]
      .toFixed(1)}; ${loop})`,
  );
}

/**
 * Polls the catalog every 100 ms until it answers with `n` cluster Resources, bounded by 60 s or
 * 40 ms a Cluster (processing and stitching take minutes at 10,000).
 */
async function waitQueryable(port: number, n: number): Promise<number> {
  let visible = 0;
  const polls = Math.max(600, Math.ceil((n * 40) / 100));
  for (let i = 0; i < polls && visible < n; i++) {
    visible = await resourceCount(port);
    if (visible < n) await new Promise(r => setTimeout(r, 100));
  }
  return visible;
}

/**
 * What reading alone costs (the LISTs and the Secrets' data, no kubeconfig parsed, no catalog), on
 * a management API of its own so that the provider's Secret cache stays cold.
 */
async function timeReadsAlone(client: KubeClient, requests: () => string) {
  const t0 = Date.now();
  // as the provider reads: no kubeconfig Secret for a Cluster its Argo CD Secret has the endpoint of
  const reads = await readAllClusters(
    managementApi(client),
    undefined,
    (cluster, argoSecret) => !!argoSecretEndpoint(cluster, argoSecret),
  );
  const ms = Date.now() - t0;
  console.log(
    `  reads alone (fresh cache)  ${String(reads.length).padStart(
      5,
    )} Clusters  ${requests()}  ${ms} ms`,
  );
}

/** The full mutations (first, then the median of three unchanged) and a delta; prints each. */
async function measure(
  client: KubeClient,
  n: number,
  firstName: string,
  postgres?: LocalPostgres,
) {
  const provider = new InfraredClusterEntityProvider({
    api: managementApi(client),
    entity: { owner: 'group:default/platform-admins' },
    logger: quiet,
    taskRunner: { run: async () => {} },
  });
  const backend = await startCatalog(provider, postgres);
  try {
    const port = (backend.server.address() as { port: number }).port;
    const requests = () => {
      const verbs = Object.entries(client.counter.byVerb())
        .map(([v, c]) => `${v} ${c}`)
        .join(', ');
      client.counter.reset();
      return verbs;
    };
    client.counter.reset();
    await timeReadsAlone(client, requests);
    const first = await timed(() => provider.fullMutation());
    line('full mutation, all new', first, requests());
    const returned = Date.now();
    const visible = await waitQueryable(port, n);
    console.log(
      `  catalog: ${visible} Resources queryable ${(
        (Date.now() - returned) /
        1000
      ).toFixed(1)} s after the mutation returned (processing and stitching)`,
    );
    const steadies: Array<{ t: Timed; r: string }> = [];
    for (let i = 0; i < 3; i++) {
      const t = await timed(() => provider.fullMutation());
      steadies.push({ t, r: requests() });
    }
    console.log(
      `  unchanged, each: ${steadies
        .map(u => u.t.s.durationMs)
        .join(' / ')} ms`,
    );
    steadies.sort((a, b) => a.t.s.durationMs - b.t.s.durationMs);
    line('full mutation, unchanged', steadies[1].t, steadies[1].r);
    const delta = await timed(() =>
      provider.deltaMutation(firstName, 'registered'),
    );
    line('delta mutation, 1 Cluster', delta, requests());
    return {
      worst: Math.max(first.s.durationMs, steadies[1].t.s.durationMs),
      visible,
    };
  } finally {
    await backend.stop();
  }
}

export async function main(): Promise<void> {
  const n = Number(arg('clusters') ?? 1000);
  const state = arg('state');
  const started = Date.now();
  const cp = state
    ? openControlPlane(state)
    : await startControlPlane({
        clusters: ['management'],
        ownerPid: process.pid,
      });
  console.log(
    state
      ? `control plane: ${state}`
      : `control plane up in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  const run = Date.now().toString(36);
  const postgres = process.argv.includes('--postgres')
    ? await startPostgres()
    : undefined;
  console.log(
    `catalog database: ${
      postgres ? 'PostgreSQL' : 'SQLite in memory'
    }; kubeconfigs as ${arg('kubeconfig-format') ?? 'yaml'}; ${
      process.argv.includes('--unregistered')
        ? 'unregistered (no Argo CD Secret)'
        : 'registered (Argo CD Secrets and status)'
    }`,
  );
  try {
    const t0 = Date.now();
    const names = await setUp(cp, n, run);
    console.log(
      `\n${n} Clusters with their kubeconfig Secrets (setup ${(
        (Date.now() - t0) /
        1000
      ).toFixed(1)} s, not timed)`,
    );
    const client = new KubeClient(
      kubeConfigFromText(cp.cluster('management').kubeconfig),
    );
    const { worst, visible } = await measure(client, n, names[0], postgres);
    console.log(
      `  anchor: full mutation <= ${MAX_MS} ms at 1,000 Clusters; goal <= ${GOAL_10K_MS} ms at 10,000 (worst here ${worst} ms at ${n})`,
    );
    console.log(
      `  load average ${os
        .loadavg()
        .map(l => l.toFixed(2))
        .join(', ')} on ${os.cpus().length} cores`,
    );
    if (visible < n) throw new Error(`only ${visible} of ${n} in the catalog`);
  } finally {
    await postgres?.stop();
    if (state) await cleanUp(cp, run);
    else await cp.stop();
  }
}

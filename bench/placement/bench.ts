/*
 * The release gate benchmark (run through run.js). N Products (default 1,000) of one org, each with
 * three zones on three Registered Clusters, each with a Release in phase Promoting whose first zone
 * is Syncing (its Application reports Progressing), so that a pass evaluates every zone and promotes
 * nothing. Prints the first pass (which settles every status) and the median of three steady passes:
 * API requests by verb, status writes, changes published and wall time, against the anchors (at
 * most 6 requests and 2 s).
 */
import path from 'node:path';
import os from 'node:os';
import fs from 'node:fs';
import {
  installCrds,
  KubeClient as AdminClient,
  openControlPlane,
  startControlPlane,
  type ControlPlane,
} from '../../packages/devenv/src';
import {
  KubeClient,
  KubePlacementApi,
  kubeConfigFromText,
  managementApi,
} from '../../plugins/infrared-kube/src';
import { ReleaseGate } from '../../plugins/infrared-backend/src/placement/gate';
import type { GatePassSummary } from '../../plugins/infrared-backend/src/placement/gate';
import { LocalGitPublisher } from '../../plugins/infrared-backend/src/gitops';

const ROOT = path.resolve(__dirname, '../..');
const API = '/apis/infrared.darkshift.io/v1alpha1';
const MAX_REQUESTS = 6;
const MAX_MS = 2000;

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

function line(
  label: string,
  p: GatePassSummary,
  byVerb: Record<string, number>,
) {
  const verbs = Object.entries(byVerb)
    .map(([v, n]) => `${v} ${n}`)
    .join(', ');
  console.log(
    `  ${label.padEnd(12)} requests ${String(p.requests).padStart(
      5,
    )} (${verbs})  status writes ${String(p.statusWrites).padStart(
      5,
    )}  published ${p.published}  wall ${String(p.durationMs).padStart(6)} ms`,
  );
}

async function setUp(cp: ControlPlane, n: number, run: string) {
  const management = cp.cluster('management');
  const admin = AdminClient.fromKubeconfig(management.kubeconfig);
  await installCrds(management, path.join(ROOT, 'deploy', 'crds'));
  await installCrds(
    management,
    path.join(ROOT, 'deploy', 'test-fixtures', 'argocd-crds.yaml'),
  );
  const org = `bench-${run}`;
  const ns = `ir-org-${org}`;
  const clusters = [1, 2, 3].map(i => `bench-${run}-edge-${i}`);
  const project = `bench-${run}`;
  for (const name of ['argocd', ns]) {
    await admin.createIfAbsent('/api/v1/namespaces', {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name },
    });
  }
  await admin.must('POST', `${API}/organizations`, {
    apiVersion: 'infrared.darkshift.io/v1alpha1',
    kind: 'Organization',
    metadata: { name: org },
    spec: { displayName: 'Bench', clusterAllowlist: clusters },
  });
  for (const name of clusters) {
    await admin.must('POST', `${API}/clusters`, {
      apiVersion: 'infrared.darkshift.io/v1alpha1',
      kind: 'Cluster',
      metadata: { name },
      spec: { type: 'workload', provider: 'local' },
    });
    await admin.must(
      'PATCH',
      `${API}/clusters/${name}/status`,
      {
        status: {
          conditions: [
            {
              type: 'Registered',
              status: 'True',
              reason: 'Registered',
              message: 'bench',
              lastTransitionTime: '2026-01-01T00:00:00Z',
            },
          ],
        },
      },
      [],
      'application/merge-patch+json',
    );
  }
  await admin.must(
    'POST',
    '/apis/argoproj.io/v1alpha1/namespaces/argocd/appprojects',
    {
      apiVersion: 'argoproj.io/v1alpha1',
      kind: 'AppProject',
      metadata: { name: project, namespace: 'argocd' },
      spec: { destinations: [{ name: '*', server: '*', namespace: '*' }] },
    },
  );

  const names = Array.from(
    { length: n },
    (_, i) => `p${String(i).padStart(4, '0')}`,
  );
  await pool(names, 16, async p => {
    const zones = clusters.map((cluster, z) => ({
      name: `${org}-${p}-z${z}`,
      cluster,
      approval: 'auto',
    }));
    await admin.must('POST', `${API}/namespaces/${ns}/products`, {
      apiVersion: 'infrared.darkshift.io/v1alpha1',
      kind: 'Product',
      metadata: { name: p, namespace: ns },
      spec: { displayName: p, repos: [{ name: p }], delivery: { zones } },
    });
    await admin.must('POST', `${API}/namespaces/${ns}/releases`, {
      apiVersion: 'infrared.darkshift.io/v1alpha1',
      kind: 'Release',
      metadata: { name: `${p}-v1`, namespace: ns },
      spec: { productRef: { name: p } },
    });
    await admin.must(
      'PATCH',
      `${API}/namespaces/${ns}/releases/${p}-v1/status`,
      {
        status: {
          phase: 'Promoting',
          zones: [{ name: zones[0].name, phase: 'Syncing' }],
        },
      },
      [],
      'application/merge-patch+json',
    );
    await admin.must(
      'POST',
      '/apis/argoproj.io/v1alpha1/namespaces/argocd/applications',
      {
        apiVersion: 'argoproj.io/v1alpha1',
        kind: 'Application',
        metadata: {
          name: `product-${zones[0].name}`,
          namespace: 'argocd',
          labels: {
            'infrared.darkshift.io/zone': zones[0].name,
            'bench.infrared.darkshift.io/run': run,
          },
          annotations: {
            'infrared.darkshift.io/release': `${ns}/${p}-v1`,
          },
        },
        spec: {
          project,
          destination: { name: clusters[0], namespace: zones[0].name },
          source: { repoURL: 'file:///bench', path: '.' },
        },
        status: {
          sync: { status: 'Synced' },
          health: { status: 'Progressing' },
        },
      },
    );
  });
  return { org, ns, clusters, project, run };
}

async function cleanUp(
  cp: ControlPlane,
  s: {
    org: string;
    ns: string;
    clusters: string[];
    project: string;
    run: string;
  },
) {
  const admin = AdminClient.fromKubeconfig(cp.cluster('management').kubeconfig);
  await admin.request(
    'DELETE',
    `/apis/argoproj.io/v1alpha1/namespaces/argocd/applications?labelSelector=${encodeURIComponent(
      `bench.infrared.darkshift.io/run=${s.run}`,
    )}`,
  );
  await admin.request('DELETE', `/api/v1/namespaces/${s.ns}`);
  await admin.request('DELETE', `${API}/organizations/${s.org}`);
  for (const c of s.clusters)
    await admin.request('DELETE', `${API}/clusters/${c}`);
  await admin.request(
    'DELETE',
    `/apis/argoproj.io/v1alpha1/namespaces/argocd/appprojects/${s.project}`,
  );
}

export async function main(): Promise<void> {
  const n = Number(arg('products') ?? 1000);
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
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-placement-'));
  let setup: Awaited<ReturnType<typeof setUp>> | undefined;
  try {
    const t0 = Date.now();
    setup = await setUp(cp, n, run);
    console.log(
      `\n${n} Products x 3 zones, ${n} promoting Releases, ${n} Applications (setup ${(
        (Date.now() - t0) /
        1000
      ).toFixed(1)} s, not timed)`,
    );
    const client = new KubeClient(
      kubeConfigFromText(cp.cluster('management').kubeconfig),
    );
    const gate = new ReleaseGate({
      kube: new KubePlacementApi(client),
      clusters: managementApi(client).clusters,
      publisher: new LocalGitPublisher({ path: path.join(tmp, 'gitops.git') }),
      managementCluster: 'infrared-mgmt',
      project: setup.project,
      logger: quiet,
    });
    const measure = async () => {
      client.counter.reset();
      const pass = await gate.pass();
      return { pass, byVerb: client.counter.byVerb() };
    };
    const first = await measure();
    line('first pass', first.pass, first.byVerb);
    const steadies = [await measure(), await measure(), await measure()];
    steadies.sort((a, b) => a.pass.durationMs - b.pass.durationMs);
    const steady = steadies[1];
    line('steady pass', steady.pass, steady.byVerb);
    console.log(
      `  anchors: requests <= ${MAX_REQUESTS} (${
        steady.pass.requests
      }), wall <= ${MAX_MS} ms (${steady.pass.durationMs} ms), ratio ${(
        steady.pass.durationMs / MAX_MS
      ).toFixed(2)}`,
    );
    if (steady.pass.published || steady.pass.statusWrites)
      throw new Error('a steady pass wrote');
    if (steady.pass.requests > MAX_REQUESTS)
      throw new Error(`a steady pass sent ${steady.pass.requests} requests`);
  } finally {
    if (setup && state) await cleanUp(cp, setup);
    fs.rmSync(tmp, { recursive: true, force: true });
    if (!state) await cp.stop();
  }
}

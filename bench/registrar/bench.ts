/*
 * The registrar benchmark (run through run.js, which loads TypeScript with Backstage's node
 * transform). For each size N (default 100 and 1,000): N namespaces labelled for the registrar,
 * each holding a k3k-style kubeconfig Secret, on a real local API server from packages/devenv.
 * Prints, for the first pass and for a steady pass: API requests (by verb), writes, wall time, and
 * the floor — the two LISTs a pass starts with, timed alone. Then dropin.ts's figures: the steady
 * pass's requests and bytes at --children (1,000) among --unrelated (6,000) Secrets, and the
 * new-child latency over --latency (50) children, the CLI's before and after and the backend's
 * (0 skips either; --latency-modes before,after,backend picks some).
 */
import {
  KubeClient as AdminClient,
  openControlPlane,
  startControlPlane,
  type ControlPlane,
} from '../../packages/devenv/src';
import {
  KubeClient,
  kubeConfigFromText,
} from '../../plugins/infrared-kube/src';
import {
  KubeRegistrarApi,
  resolveRegistrarOptions,
  runRegistrarPass,
  SOURCE_SECRET_FIELD_SELECTOR,
  type RegistrarLogger,
  type RegistrarPassReport,
} from '../../plugins/infrared-registrar/src';

import { benchLatency, benchSteady } from './dropin';

const P = 'argocd-cluster-registrar/';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
}

const quiet: RegistrarLogger = {
  debug() {},
  info() {},
  warn(message) {
    process.stderr.write(`warn: ${message}\n`);
  },
  error(message, fields) {
    process.stderr.write(`error: ${message} ${JSON.stringify(fields ?? {})}\n`);
  },
};

const b64 = (s: string) => Buffer.from(s).toString('base64');
const fmt = (ms: number) => `${Math.round(ms)} ms`;

async function pool<T>(items: T[], n: number, fn: (t: T) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: n }, async () => {
      while (next < items.length) await fn(items[next++]);
    }),
  );
}

/** A k3k-shaped kubeconfig: the management admin's credential, a distinct address per child. */
function childKubeconfig(adminKubeconfig: string, i: number): string {
  return adminKubeconfig.replace(
    /server: .*/,
    `server: https://10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}:6443`,
  );
}

async function median(
  times: number,
  fn: () => Promise<number>,
): Promise<number> {
  const xs: number[] = [];
  for (let i = 0; i < times; i++) xs.push(await fn());
  xs.sort((a, b) => a - b);
  return xs[Math.floor(xs.length / 2)];
}

function line(label: string, r: RegistrarPassReport, floorMs: number) {
  const verbs = Object.entries(r.requestsByVerb)
    .map(([v, n]) => `${v} ${n}`)
    .join(', ');
  console.log(
    `  ${label.padEnd(12)} requests ${String(r.requests).padStart(
      5,
    )} (${verbs})  writes ${String(r.writes).padStart(5)}  wall ${fmt(
      r.durationMs,
    ).padStart(8)}  floor ${fmt(floorMs).padStart(
      7,
    )}  (in the pass: reads ${fmt(r.readMs)}, plan ${fmt(r.planMs)})`,
  );
}

/** Records how long each createSecret of `api` takes, from now on. */
function timeWrites(api: KubeRegistrarApi): number[] {
  const times: number[] = [];
  const create = api.createSecret.bind(api);
  api.createSecret = async (...args) => {
    const t0 = performance.now();
    try {
      return await create(...args);
    } finally {
      times.push(performance.now() - t0);
    }
  };
  return times;
}

function percentiles(xs: number[]): string {
  const sorted = [...xs].sort((a, b) => a - b);
  const at = (q: number) =>
    Math.round(
      sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))],
    );
  return sorted.length
    ? `p50 ${at(0.5)} ms, p95 ${at(0.95)} ms, max ${at(1)} ms`
    : 'none';
}

async function benchSize(cp: ControlPlane, n: number, run: string) {
  const management = cp.cluster('management');
  const admin = AdminClient.fromKubeconfig(management.kubeconfig);
  const managedBy = `bench-${run}-${n}`;
  const targetNamespace = `argocd-bench-${run}-${n}`;
  await admin.createIfAbsent('/api/v1/namespaces', {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: targetNamespace },
  });
  const setupStart = Date.now();
  const names = Array.from(
    { length: n },
    (_, i) => `bench-${run}-${n}-${String(i).padStart(4, '0')}`,
  );
  const api = new KubeRegistrarApi(
    new KubeClient(kubeConfigFromText(management.kubeconfig)),
  );
  // `--run <id>` on a control plane kept with `--state`: the namespaces made by that run are
  // reused, and the first pass registers them again from an empty target namespace.
  const made = await api.listNamespaces(`${P}managed-by=${managedBy}`);
  if (made.length >= n) {
    // a DELETE of 10,000 Secrets takes longer than a request's default 30 s
    const emptied = await admin.request(
      'DELETE',
      `/api/v1/namespaces/${targetNamespace}/secrets`,
      undefined,
      undefined,
      600_000,
    );
    if (emptied.status !== 200) throw new Error(`DELETE: ${emptied.status}`);
  }
  await pool(made.length >= n ? [] : names, 16, async ns => {
    const i = names.indexOf(ns);
    await admin.createIfAbsent('/api/v1/namespaces', {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: {
        name: ns,
        labels: {
          [`${P}managed-by`]: managedBy,
          [`${P}cluster`]: ns,
          [`${P}flux`]: 'true',
        },
      },
    });
    await admin.createIfAbsent(`/api/v1/namespaces/${ns}/secrets`, {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: `k3k-${ns}-kubeconfig`, namespace: ns },
      data: {
        'kubeconfig.yaml': b64(childKubeconfig(management.kubeconfig, i)),
      },
    });
  });
  console.log(
    `\n${n} managed namespaces (setup ${(
      (Date.now() - setupStart) /
      1000
    ).toFixed(1)} s, not timed)`,
  );

  api.counter.reset();
  const { options } = resolveRegistrarOptions({ managedBy, targetNamespace });
  /** Requests (LIST pages) of the last floor: what a steady pass may send. */
  let floorPages = 0;
  const floor = () =>
    median(3, async () => {
      const before = api.counter.total;
      const t0 = Date.now();
      await Promise.all([
        api.listNamespaces(`${P}managed-by=${managedBy}`),
        api.listSecretsMetadata(SOURCE_SECRET_FIELD_SELECTOR),
      ]);
      const ms = Date.now() - t0;
      floorPages = api.counter.total - before;
      return ms;
    });

  const floorFirst = await floor();
  const postMs = timeWrites(api);
  const concurrency = arg('concurrency')
    ? Number(arg('concurrency'))
    : undefined;
  const first = await runRegistrarPass(api, options, {
    logger: quiet,
    concurrency,
  });
  if (first.errors.length) throw new Error(first.errors.join('; '));
  line('first pass', first, floorFirst);
  console.log(
    `  the API server's POST, each: ${percentiles(postMs)} (${
      concurrency ?? 'default'
    } in flight)`,
  );

  const floorSteady = await floor();
  const steadies: RegistrarPassReport[] = [];
  for (let i = 0; i < 3; i++)
    steadies.push(await runRegistrarPass(api, options, { logger: quiet }));
  steadies.sort((a, b) => a.durationMs - b.durationMs);
  const steady = steadies[1];
  line('steady pass', steady, floorSteady);
  console.log(`  the two LISTs: ${floorPages} pages`);
  // A steady pass sends its two LISTs (their pages) and nothing else.
  const onlyLists = Object.keys(steady.requestsByVerb).every(v => v === 'LIST');
  if (steady.writes !== 0 || !onlyLists || steady.requests > floorPages) {
    throw new Error(
      `steady pass: ${steady.writes} writes, ${steady.requests} requests (${floorPages} pages)`,
    );
  }
  return { first, steady, floorFirst, floorSteady, managedBy, targetNamespace };
}

export async function main(): Promise<void> {
  const sizes = (arg('sizes') ?? '100,1000')
    .split(',')
    .filter(Boolean)
    .map(Number);
  const children = Number(arg('children') ?? 1000);
  const unrelated = Number(arg('unrelated') ?? 6000);
  const latencyChildren = Number(arg('latency') ?? 50);
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
  const run = arg('run') ?? Date.now().toString(36);
  console.log(`run ${run} (reuse its namespaces: --state <same> --run ${run})`);
  try {
    let last: { managedBy: string; targetNamespace: string } | undefined;
    for (const n of sizes) last = await benchSize(cp, n, run);
    // With --children 0 the new-child latency is measured among the last size's children
    // (`--sizes 10000 --children 0`: a new child beside 10,000 registered ones).
    const big =
      children > 0 ? await benchSteady(cp, run, children, unrelated) : last;
    if (latencyChildren > 0) {
      const modes = (arg('latency-modes') ?? 'before,after,backend')
        .split(',')
        .filter(Boolean) as Array<'before' | 'after' | 'backend'>;
      // new names each time, also when `--run` reuses the registered ones
      const fresh = Date.now().toString(36);
      await benchLatency(cp, fresh, latencyChildren, big, modes);
    }
  } finally {
    if (!state) await cp.stop();
  }
}

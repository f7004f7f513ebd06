/*
 * The registrar's drop-in figures (issue 12), on a local API server from packages/devenv:
 * - steady pass at N children (default 1,000) among M unrelated Secrets (default 6,000, ~2 KB each,
 *   in their own namespaces): requests and bytes on the wire (TLS, both directions, counted by a
 *   loopback TCP proxy in front of the API server), before (one LIST of every Secret with its data)
 *   and after (metadata-only LIST, data only for changed kubeconfig Secrets); and the Secrets whose
 *   data the registrar keeps between passes;
 * - new-child latency, p50 and p95 over K children (default 50): from the kubeconfig Secret's
 *   creation to its Argo CD Secret, with the CLI's continuous mode (`--interval 60s`), before
 *   (a pass per interval) and after (watches); and the backend's scheduled task (interval 60s) on
 *   the replica holding the registrar's Lease, which passes in-process on a watch event (the
 *   scheduler here never runs the task after its first run).
 * Everything runs against 127.0.0.1; every loop is bounded in count and time.
 */
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import {
  KubeClient as AdminClient,
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
  secretDataCacheFor,
  type RegistrarApi,
  type RegistrarLogger,
  type RegistrarPassReport,
} from '../../plugins/infrared-registrar/src';
import { main as registrarCli } from '../../plugins/infrared-registrar/src/command';
import { ConfigReader } from '@backstage/config';
import { registerRegistrarTask } from '../../plugins/infrared-backend/src/registrar/task';

const P = 'argocd-cluster-registrar/';
const b64 = (s: string) => Buffer.from(s).toString('base64');

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

async function pool<T>(items: T[], n: number, fn: (t: T) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: n }, async () => {
      while (next < items.length) await fn(items[next++]);
    }),
  );
}

function sleep(ms: number) {
  return new Promise(r => setTimeout(r, ms));
}

/** A loopback TCP proxy to the API server that counts the bytes through it. */
async function countingProxy(server: string) {
  const upstream = new URL(server);
  let bytes = 0;
  const sockets = new Set<net.Socket>();
  const proxy = net.createServer(client => {
    const up = net.connect(Number(upstream.port), upstream.hostname);
    sockets.add(client).add(up);
    client.on('data', d => (bytes += d.length));
    up.on('data', d => (bytes += d.length));
    client.pipe(up).pipe(client);
    const close = () => {
      client.destroy();
      up.destroy();
      sockets.delete(client);
      sockets.delete(up);
    };
    client.on('error', close).on('close', close);
    up.on('error', close).on('close', close);
  });
  await new Promise<void>(r => proxy.listen(0, '127.0.0.1', r));
  const port = (proxy.address() as net.AddressInfo).port;
  return {
    url: `https://127.0.0.1:${port}`,
    bytes: () => bytes,
    close: () =>
      new Promise<void>(r => {
        for (const s of sockets) s.destroy();
        proxy.close(() => r());
      }),
  };
}

function childKubeconfig(admin: string, server: string, i: number) {
  return admin.replace(
    server,
    `https://10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}:6443`,
  );
}

const kb = (n: number) =>
  n >= 1e6 ? `${(n / 1e6).toFixed(2)} MB` : `${(n / 1e3).toFixed(1)} kB`;

async function setup(
  cp: ControlPlane,
  run: string,
  children: number,
  unrelated: number,
) {
  const m = cp.cluster('management');
  const admin = AdminClient.fromKubeconfig(m.kubeconfig);
  const managedBy = `dropin-${run}`;
  const targetNamespace = `argocd-dropin-${run}`;
  const started = Date.now();
  await admin.createIfAbsent('/api/v1/namespaces', {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: targetNamespace },
  });
  const names = Array.from(
    { length: children },
    (_, i) => `dropin-${run}-${String(i).padStart(4, '0')}`,
  );
  await pool(names, 16, async ns => {
    const i = names.indexOf(ns);
    await admin.createIfAbsent('/api/v1/namespaces', {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: {
        name: ns,
        labels: { [`${P}managed-by`]: managedBy, [`${P}cluster`]: ns },
      },
    });
    await admin.createIfAbsent(`/api/v1/namespaces/${ns}/secrets`, {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: `k3k-${ns}-kubeconfig`, namespace: ns },
      data: {
        'kubeconfig.yaml': b64(childKubeconfig(m.kubeconfig, m.server, i)),
      },
    });
  });
  // Unrelated: 100 per namespace, each with ~2 KB of random data (a certificate and key's worth;
  // random, so that compression on the wire does not flatter either side).
  const spaces = Math.ceil(unrelated / 100);
  for (let s = 0; s < spaces; s++) {
    await admin.createIfAbsent('/api/v1/namespaces', {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: `unrelated-${run}-${s}` },
    });
  }
  await pool(
    Array.from({ length: unrelated }, (_, i) => i),
    16,
    async i => {
      const ns = `unrelated-${run}-${Math.floor(i / 100)}`;
      await admin.createIfAbsent(`/api/v1/namespaces/${ns}/secrets`, {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: `app-${i}`, namespace: ns },
        type: 'Opaque',
        data: {
          'tls.crt': randomBytes(1500).toString('base64'),
          note: b64(`secret ${i}`),
        },
      });
    },
  );
  console.log(
    `\n${children} children among ${unrelated} unrelated Secrets (setup ${(
      (Date.now() - started) /
      1000
    ).toFixed(1)} s, not timed)`,
  );
  return { managedBy, targetNamespace };
}

/** The API without metadata reads: a pass lists every Secret with its data, as before. */
function withoutMetadataReads(api: KubeRegistrarApi): RegistrarApi {
  return {
    counter: api.counter,
    listNamespaces: api.listNamespaces.bind(api),
    getNamespace: api.getNamespace.bind(api),
    listSecrets: api.listSecrets.bind(api),
    listSecretMetadata: api.listSecretMetadata.bind(api),
    createSecret: api.createSecret.bind(api),
    replaceSecret: api.replaceSecret.bind(api),
    deleteSecret: api.deleteSecret.bind(api),
  };
}

function verbs(r: RegistrarPassReport) {
  return Object.entries(r.requestsByVerb)
    .map(([v, n]) => `${v} ${n}`)
    .join(', ');
}

/** Steady-pass requests and bytes, before and after. */
export async function benchSteady(
  cp: ControlPlane,
  run: string,
  children: number,
  unrelated: number,
) {
  const { managedBy, targetNamespace } = await setup(
    cp,
    run,
    children,
    unrelated,
  );
  const m = cp.cluster('management');
  const proxy = await countingProxy(m.server);
  try {
    const { options } = resolveRegistrarOptions({ managedBy, targetNamespace });
    const admin = AdminClient.fromKubeconfig(m.kubeconfig);
    for (const mode of ['before', 'after'] as const) {
      // Each mode registers the children from scratch.
      await admin.request(
        'DELETE',
        `/api/v1/namespaces/${targetNamespace}/secrets`,
      );
      const real = new KubeRegistrarApi(
        new KubeClient(
          kubeConfigFromText(m.kubeconfig.replace(m.server, proxy.url)),
        ),
      );
      const api = mode === 'before' ? withoutMetadataReads(real) : real;
      const measure = async () => {
        const b0 = proxy.bytes();
        const report = await runRegistrarPass(api, options, { logger: quiet });
        if (report.errors.length) throw new Error(report.errors.join('; '));
        return { report, bytes: proxy.bytes() - b0 };
      };
      const first = await measure();
      const steadies = [await measure(), await measure(), await measure()];
      steadies.sort((a, b) => a.bytes - b.bytes);
      const steady = steadies[1];
      console.log(
        `  ${mode.padEnd(6)} first pass  requests ${String(
          first.report.requests,
        ).padStart(4)} (${verbs(first.report)})  writes ${
          first.report.writes
        }  bytes ${kb(first.bytes)}  wall ${first.report.durationMs} ms`,
      );
      console.log(
        `  ${mode.padEnd(6)} steady pass requests ${String(
          steady.report.requests,
        ).padStart(4)} (${verbs(steady.report)})  writes ${
          steady.report.writes
        }  bytes ${kb(steady.bytes)}  wall ${
          steady.report.durationMs
        } ms  Secrets with data kept: ${
          mode === 'after'
            ? secretDataCacheFor(api).size
            : 'none (all read each pass)'
        }`,
      );
      if (steady.report.writes !== 0) {
        throw new Error(
          `${mode}: the steady pass wrote ${steady.report.writes}`,
        );
      }
    }
  } finally {
    await proxy.close();
  }
  return { managedBy, targetNamespace };
}

/**
 * Log lines of the registrar under test while one child is timed (`start`, `stop`): what sits
 * between its kubeconfig Secret's creation and its Argo CD Secret (watch event, debounce, the
 * pass's reads, plan and write), printed in milliseconds from the creation.
 */
function timelineRecorder() {
  let t0 = 0;
  let on = false;
  const lines: Array<[number, string]> = [];
  return {
    line(text: string) {
      if (on) lines.push([Date.now() - t0, text.trim()]);
    },
    mark(text: string) {
      this.line(`(bench) ${text}`);
    },
    start() {
      t0 = Date.now();
      on = true;
    },
    stop() {
      on = false;
    },
    print(label: string) {
      console.log(`  timeline of one new child (${label}):`);
      for (const [ms, text] of lines) {
        const short = text.replace(/^time=\S+ /, '');
        console.log(
          `    +${String(ms).padStart(5)} ms  ${short.slice(0, 220)}`,
        );
      }
      lines.length = 0;
    },
  };
}

function percentile(xs: number[], p: number) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
}

/** The backend's registrar task on one replica, with a scheduler that runs the task once. */
async function startBackendRegistrar(
  kubeconfig: string,
  managedBy: string,
  target: string,
  timeline: ReturnType<typeof timelineRecorder>,
): Promise<() => Promise<void>> {
  const kubeConfig = kubeConfigFromText(kubeconfig);
  const record =
    (level: string) => (message: string, fields?: Record<string, unknown>) =>
      timeline.line(
        `level=${level} msg="${message}" ${
          fields ? JSON.stringify(fields) : ''
        }`,
      );
  const logger: any = {
    ...quiet,
    debug: record('DEBUG'),
    info: record('INFO'),
    child: () => logger,
  };
  const task = await registerRegistrarTask({
    config: new ConfigReader({
      infrared: {
        registrar: {
          enabled: true,
          managedBy,
          targetNamespace: target,
          interval: '60s',
        },
      },
    }),
    logger,
    scheduler: {
      scheduleTask: async (t: any) => {
        // Backstage's first run at startup; never again.
        await t.fn(new AbortController().signal);
      },
      triggerTask: async () => {},
    } as any,
    client: new KubeClient(kubeConfig),
    kubeConfig,
  });
  if (!task) throw new Error('the registrar task is disabled');
  const deadline = Date.now() + 30_000;
  while (task.leadership() !== 'leader') {
    if (Date.now() > deadline) throw new Error('backend: no Lease');
    await sleep(50);
  }
  return task.stop;
}

/**
 * New-child latency with the CLI's continuous mode (--interval 60s), before and after, and with
 * the backend's task on the Lease holder.
 */
export async function benchLatency(
  cp: ControlPlane,
  run: string,
  count: number,
  /** The registrar of benchSteady (its 1,000 children), else one of its own. */
  existing?: { managedBy: string; targetNamespace: string },
  modes: Array<'before' | 'after' | 'backend'> = ['before', 'after', 'backend'],
) {
  const m = cp.cluster('management');
  const admin = AdminClient.fromKubeconfig(m.kubeconfig);
  console.log(
    `\nnew-child latency over ${count} children${
      existing ? ', added to those above' : ''
    }: kubeconfig Secret created -> Argo CD Secret present (CLI, --interval 60s; backend, interval 60s)`,
  );
  for (const mode of modes) {
    const managedBy = existing?.managedBy ?? `lat-${mode}-${run}`;
    const target = existing?.targetNamespace ?? `argocd-lat-${mode}-${run}`;
    await admin.createIfAbsent('/api/v1/namespaces', {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: target },
    });
    const stop = new AbortController();
    const timeline = timelineRecorder();
    const cli =
      mode === 'backend'
        ? undefined
        : registrarCli(
            [
              '--interval=60s',
              `--target-namespace=${target}`,
              `--managed-by=${managedBy}`,
              '--health-probe-bind-address=',
              '--debug',
            ],
            {
              stdout: t => {
                for (const l of t.split('\n')) if (l) timeline.line(l);
              },
              stderr: t => process.stderr.write(t),
              kubeConfig: kubeConfigFromText(m.kubeconfig),
              signal: stop.signal,
              watch: mode === 'after',
            },
          );
    const stopBackend =
      mode === 'backend'
        ? await startBackendRegistrar(m.kubeconfig, managedBy, target, timeline)
        : undefined;
    // its first pass (--settle <seconds> for a large fleet, whose first pass reads every kubeconfig)
    const settle = process.argv.indexOf('--settle');
    await sleep(
      settle > 0
        ? Number(process.argv[settle + 1]) * 1000
        : mode === 'before'
        ? 1000
        : 3000,
    );
    const latencies: number[] = [];
    const one = async (i: number) => {
      const ns = `lat-${mode}-${run}-${i}`;
      await admin.createIfAbsent('/api/v1/namespaces', {
        apiVersion: 'v1',
        kind: 'Namespace',
        metadata: {
          name: ns,
          labels: { [`${P}managed-by`]: managedBy, [`${P}cluster`]: ns },
        },
      });
      // the timeline of the child in the middle (its namespace's own pass has settled by now)
      const timed = i === Math.floor(count / 2);
      if (timed) timeline.start();
      const t0 = Date.now();
      await admin.createIfAbsent(`/api/v1/namespaces/${ns}/secrets`, {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: `k3k-${ns}-kubeconfig`, namespace: ns },
        data: {
          'kubeconfig.yaml': b64(
            // An address of its own (the same address twice is a server_collision), also beside
            // the children of an earlier run on a kept control plane (`--run`).
            childKubeconfig(
              m.kubeconfig,
              m.server,
              ({ before: 1, after: 2, backend: 3 } as const)[mode] * 1_000_000 +
                (parseInt(run, 36) % 9_973) * 100 +
                i,
            ),
          ),
        },
      });
      if (timed) timeline.mark('kubeconfig Secret created (answered)');
      const deadline = t0 + 120_000;
      for (;;) {
        // a poll that timed out on a loaded API server (10,000 children) is one more try
        const res = await admin
          .request('GET', `/api/v1/namespaces/${target}/secrets/cluster-${ns}`)
          .catch(() => undefined);
        if (res?.status === 200) break;
        if (Date.now() > deadline) throw new Error(`${ns}: not registered`);
        // Fine-grained where latency is sub-second; coarser while 50 children wait for a poll.
        await sleep(mode === 'before' ? 250 : 20);
      }
      latencies.push(Date.now() - t0);
      if (timed) {
        timeline.mark('Argo CD Secret seen by the poll');
        timeline.stop();
      }
    };
    try {
      if (mode !== 'before') {
        // One after another, a second apart: each child on its own.
        for (let i = 0; i < count; i++) {
          await one(i);
          await sleep(1000);
        }
      } else {
        // Spread over one interval: a child appears at any point of the poll cycle.
        await Promise.all(
          Array.from({ length: count }, async (_, i) => {
            await sleep((i * 60_000) / count);
            await one(i);
          }),
        );
      }
    } finally {
      stop.abort();
      await cli;
      await stopBackend?.();
    }
    console.log(
      `  ${mode.padEnd(7)} ${
        {
          before: 'CLI, a pass per --interval',
          after: 'CLI, watch-driven',
          backend: 'task on the Lease holder, a pass in-process on a change',
        }[mode]
      }: p50 ${percentile(latencies, 50)} ms, p95 ${percentile(
        latencies,
        95,
      )} ms, max ${Math.max(...latencies)} ms`,
    );
    if (mode !== 'before') timeline.print(mode);
  }
}

/*
 * The scale benchmark (run through run.js). On a real local control plane from packages/devenv:
 * N Clusters POSTed at once through the plugin's REST router (ClusterService, the reconciler's fast
 * path, the BatchingPublisher over a local gitops repo), all pointing at the devenv workload API
 * server; then steady passes, the list route's latency, memory and CPU at rest. Only Backstage auth
 * is stubbed (it allows). Every address is loopback.
 */
import { AuthorizeResult } from '@backstage/plugin-permission-common';
import { spawn } from 'node:child_process';
import diagnostics from 'node:diagnostics_channel';
import express from 'express';
import fs from 'node:fs';
import inspector from 'node:inspector/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import {
  createNodes,
  KubeClient as AdminClient,
  startControlPlane,
} from '../../packages/devenv/src';
import {
  KubeClient,
  KubeClusterProber,
  kubeConfigFromText,
  managementApi,
  RequestCounter,
  watchClusters,
  watchSecrets,
} from '../../plugins/infrared-kube/src';
import { discoveredSecretsSelector } from '../../plugins/infrared-registrar/src';
import { createRouter } from '../../plugins/infrared-backend/src/api/router';
import {
  ClusterListCache,
  ClusterReconciler,
  DEFAULT_MAX_FILES_PER_CHANGE,
  ClusterService,
} from '../../plugins/infrared-backend/src/clusters';
import { prepareManagementCluster } from '../../plugins/infrared-backend/src/clusters/__testUtils__/managementCluster';
import { DiscoveredList } from '../../plugins/infrared-backend/src/clusters/discoveredList';
import { MANAGED_SELECTOR } from '../../plugins/infrared-backend/src/clusters/observe';
import {
  BatchingPublisher,
  LocalGitPublisher,
} from '../../plugins/infrared-backend/src/gitops';
import { arg, percentile, quiet, sleep } from '../registration/bench';
import { memoryGrowth, memoryParts } from './memoryParts';
import { trace } from './trace';

/** Aliases one child process serves: each holds a listening socket and two per open connection. */
const ALIASES_PER_CHILD = Number(process.env.BENCH_ALIASES_PER_CHILD ?? 2500);

/**
 * `count` kubeconfigs of one cluster, each at an address of its own (one registration per API
 * server, issue 23.1), from bench/scale/aliases.js in child processes of ALIASES_PER_CHILD each:
 * the forwarding costs this process nothing, and no child runs out of file descriptors (one child
 * for 10,000 hit the limit of 20,000 and reset connections). The children stop when this process
 * ends or calls stop().
 */
async function aliasesInChild(statePath: string, count: number) {
  const children: ReturnType<typeof spawn>[] = [];
  const parts: Promise<string[]>[] = [];
  for (let at = 0; at < count; at += ALIASES_PER_CHILD) {
    const child = spawn(
      process.execPath,
      [
        path.join(__dirname, 'aliases.js'),
        statePath,
        'workload-a',
        `${Math.min(ALIASES_PER_CHILD, count - at)}`,
      ],
      { stdio: ['pipe', 'pipe', 'inherit'] },
    );
    children.push(child);
    let out = '';
    parts.push(
      new Promise<string[]>((resolve, reject) => {
        child.stdout!.on('data', chunk => {
          out += chunk;
          if (out.includes('\n')) {
            resolve(JSON.parse(out));
            out = '';
          }
        });
        child.once('exit', code =>
          reject(new Error(`aliases.js exited ${code}`)),
        );
      }),
    );
  }
  const kubeconfigs = (await Promise.all(parts)).flat();
  return {
    kubeconfigs,
    stop: () => children.forEach(child => child.stdin!.end()),
  };
}

const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);
const verdict = (ok: boolean) => (ok ? 'met' : 'MISSED');

/** Counts the TCP connections this process opens to `ports` while `fn` runs. */
async function connectionsTo<T>(ports: Set<number>, fn: () => Promise<T>) {
  let opened = 0;
  const onSocket = ({ socket }: any) =>
    socket.once('connect', () => {
      if (ports.has(socket.remotePort)) opened++;
    });
  diagnostics.subscribe('net.client.socket', onSocket);
  try {
    return { result: await fn(), opened };
  } finally {
    diagnostics.unsubscribe('net.client.socket', onSocket);
  }
}

/**
 * Counts the TCP connections this process opens while it runs, to the management API server and
 * to any address, and the most open at once (each costs a socket's buffers, and a TLS one its
 * handshake and native state: what the allocator keeps after a burst).
 */
function socketCensus(managementPort: number) {
  const census = {
    management: 0,
    all: 0,
    open: 0,
    peakOpen: 0,
    peakManagement: 0,
  };
  let openManagement = 0;
  const onSocket = ({ socket }: any) =>
    socket.once('connect', () => {
      const management = socket.remotePort === managementPort;
      census.all++;
      census.open++;
      census.peakOpen = Math.max(census.peakOpen, census.open);
      if (management) {
        census.management++;
        openManagement++;
        census.peakManagement = Math.max(census.peakManagement, openManagement);
      }
      socket.once('close', () => {
        census.open--;
        if (management) openManagement--;
      });
    });
  diagnostics.subscribe('net.client.socket', onSocket);
  return {
    census,
    stop: () => diagnostics.unsubscribe('net.client.socket', onSocket),
  };
}

/** The value of `--<name> <text>`, undefined when not given. */
function argText(name: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

/** Runs `fn` under the V8 CPU profiler and writes the profile (.cpuprofile, for DevTools) to `file`. */
async function cpuProfile<T>(file: string, fn: () => Promise<T>): Promise<T> {
  const session = new inspector.Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  try {
    return await fn();
  } finally {
    const { profile } = await session.post('Profiler.stop');
    fs.writeFileSync(file, JSON.stringify(profile));
    session.disconnect();
    console.log(`  CPU profile: ${file}`);
  }
}

interface Replica {
  counter: RequestCounter;
  probeCounter: RequestCounter;
  reconciler: ClusterReconciler;
  local: LocalGitPublisher;
  base: string;
  /** Registrations this replica's passes published. */
  published: () => number;
  stop: () => Promise<void>;
}

/**
 * One backend replica as plugin.ts and createClusters wire it: its own clients, prober, reconciler
 * with a BatchingPublisher over the local gitops repository (shared by the replicas), watch,
 * ClusterService and REST router on a loopback port. An API write starts a pass over that Cluster
 * at once on this replica (and calls onWrite).
 */
async function startReplica(
  kubeconfig: string,
  repoPath: string,
  { onWrite }: { onWrite: () => void },
): Promise<Replica> {
  const counter = new RequestCounter();
  const probeCounter = new RequestCounter();
  const client = new KubeClient(kubeConfigFromText(kubeconfig), { counter });
  const api = trace.api(managementApi(client));
  const prober = trace.prober(
    new KubeClusterProber(client, { counter: probeCounter }),
  );
  const local = new LocalGitPublisher({ path: repoPath });
  let published = 0;
  // the scheduled pass reads these as the wiring's (--pass-lists: it LISTs, as before issue 25)
  const watched = watchClusters(client);
  const secretsOf = (namespace: string, withoutData: boolean) =>
    watchSecrets(client, namespace, {
      labelSelector: MANAGED_SELECTOR,
      withoutData,
    });
  // as startClusterWatches: the kubeconfig Secrets' metadata only
  const [kubeconfigs, argos] = [
    secretsOf('infrared', true),
    secretsOf('argocd', false),
  ];
  // as startClusterWatches with the registrar: its Argo CD Secrets, for the REST list
  const { namespace, labelSelector } = discoveredSecretsSelector();
  const discoveredSecrets = watchSecrets(client, namespace, { labelSelector });
  const caches = [watched, kubeconfigs, argos, discoveredSecrets];
  await Promise.all(caches.map(c => c.start()));
  const reconciler = new ClusterReconciler({
    watches: process.argv.includes('--pass-lists')
      ? undefined
      : { clusters: watched, kubeconfigs, argos },
    api,
    prober,
    publisher: trace.publisher(
      'queued',
      new BatchingPublisher(trace.publisher('publish', local), {
        maxFilesPerChange: DEFAULT_MAX_FILES_PER_CHANGE,
      }),
    ),
    managementCluster: 'infrared-mgmt',
    logger: {
      ...quiet,
      info: (message: string) => {
        if (/registered in the gitops repo/.test(message)) published++;
      },
    } as typeof quiet,
  });
  const discovered = new DiscoveredList({
    secrets: api.secrets,
    options: {},
    watched: discoveredSecrets,
  });
  const service = new ClusterService({
    api,
    managementCluster: 'infrared-mgmt',
    logger: quiet,
    listCache: new ClusterListCache(watched),
    // the registrar's children beside them, as the wiring lists them when the registrar runs
    listDiscovered: () => discovered.list(),
    onChange: name => {
      trace.mark('pass started');
      reconciler.reconcile({ names: [name] }).catch(e => quiet.warn(e.message));
      onWrite();
    },
  });
  const router = await createRouter({
    httpAuth: {
      credentials: async () => ({
        $$type: '@backstage/BackstageCredentials',
        principal: { type: 'user', userEntityRef: 'user:default/bench' },
      }),
    } as any,
    permissions: {
      authorize: async (requests: unknown[]) =>
        requests.map(() => ({ result: AuthorizeResult.ALLOW })),
    } as any,
    logger: quiet,
    clusters: service,
  });
  const app = express();
  app.use('/api/infrared', router);
  const server = app.listen(0, '127.0.0.1');
  await new Promise(r => server.once('listening', r));
  const base = `http://127.0.0.1:${
    (server.address() as AddressInfo).port
  }/api/infrared`;
  return {
    counter,
    probeCounter,
    reconciler,
    local,
    base,
    published: () => published,
    stop: async () => {
      server.close();
      await Promise.all(caches.map(c => c.stop()));
    },
  };
}

/**
 * The scheduled pass over every Cluster as a global task: a write asks for a run; asks during a run
 * make one more run after it (the scheduler refuses a trigger while the task runs, and
 * ReconcileTrigger asks again); each run on the next replica in turn.
 */
class GlobalTask {
  runs = 0;
  private running?: Promise<void>;
  private again = false;

  request(replicas: Replica[]): void {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = (async () => {
      do {
        this.again = false;
        const replica = replicas[this.runs++ % replicas.length];
        await replica.reconciler
          .reconcileAll()
          .catch(e => quiet.warn(e.message));
      } while (this.again);
    })().finally(() => {
      this.running = undefined;
    });
  }

  async settled(): Promise<void> {
    while (this.running) await this.running;
  }
}

/**
 * The bench's Clusters Registered now, from a LIST (in a function of its own: a LIST of 10,000
 * Clusters left in main's frame stayed alive to the end, and counted in the backend's RSS).
 */
async function countRegistered(admin: AdminClient): Promise<number> {
  const list = await admin.must(
    'GET',
    '/apis/infrared.darkshift.io/v1alpha1/clusters',
  );
  if (process.env.BENCH_DEBUG) {
    const one = list.body.items.find((c: any) => c.metadata.name === 'scale-0');
    console.log(JSON.stringify(one?.status?.conditions));
  }
  return list.body.items.filter(
    (c: any) =>
      c.metadata.name.startsWith('scale-') &&
      c.status?.conditions?.some(
        (x: any) => x.type === 'Registered' && x.status === 'True',
      ),
  ).length;
}

export async function main(): Promise<void> {
  const scale = arg('clusters', 1000);
  const restSeconds = arg('rest-seconds', 60);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'infrared-scale-'));
  const load = () =>
    os
      .loadavg()
      .map(l => l.toFixed(2))
      .join(', ');
  console.log(`load average at the start: ${load()}`);
  console.log('starting a control plane');
  const cp = await startControlPlane({
    clusters: ['management', 'workload-a'],
    ownerPid: process.pid,
  });
  let stopAliases = () => {};
  try {
    const management = cp.cluster('management');
    const workload = cp.cluster('workload-a');
    console.log('control plane up');
    const backendKubeconfig = await prepareManagementCluster(management);
    await createNodes(workload, 3, 'bench-node');

    const replicaCount = arg('replicas', 1);
    // --task (on with --replicas > 1): an API write also triggers the scheduled pass over every
    // Cluster, as createClusters does; it runs on one replica at a time, in turn (a global task).
    const task =
      replicaCount > 1 || process.argv.includes('--task')
        ? new GlobalTask()
        : undefined;
    const replicas: Replica[] = [];
    for (let i = 0; i < replicaCount; i++) {
      replicas.push(
        await startReplica(backendKubeconfig, path.join(tmp, 'gitops.git'), {
          onWrite: () => task?.request(replicas),
        }),
      );
    }
    const { counter, probeCounter, reconciler, local, base } = replicas[0];
    await reconciler.reconcileAll();
    const admin = AdminClient.fromKubeconfig(management.kubeconfig);
    // the harness's own data (a kubeconfig text per alias, 2.4 KB each) is in the baseline
    const aliases = await aliasesInChild(cp.statePath, scale + 5);
    stopAliases = aliases.stop;
    global.gc?.();
    const memoryBefore = memoryParts();
    const rssBefore = memoryBefore.rss;
    const heapBefore = memoryBefore.heapUsed;

    // 1. N registrations at once through the API, each at an address of its own
    const t0 = Date.now();
    const names = Array.from({ length: scale }, (_, i) => `scale-${i}`);
    const latencies: number[] = [];
    const postAll = async () => {
      for (let i = 0; i < names.length; i += 50) {
        await Promise.all(
          names.slice(i, i + 50).map(async (name, j) => {
            const at = i + j;
            const res = await fetch(
              `${replicas[at % replicas.length].base}/v1/clusters`,
              {
                method: 'POST',
                headers: { 'Content-Type': 'application/json' },
                body: JSON.stringify({
                  name,
                  kubeconfig: aliases.kubeconfigs[at],
                  flavor: 'k3s',
                  provider: 'local',
                }),
              },
            );
            if (res.status !== 201) {
              throw new Error(
                `POST ${name}: ${res.status} ${await res.text()}`,
              );
            }
          }),
        );
      }
    };
    const postsProfile = argText('profile-posts');
    const sockets = socketCensus(
      Number(new URL(management.server).port || 443),
    );
    await (postsProfile ? cpuProfile(postsProfile, postAll) : postAll());
    const posted = Date.now() - t0;
    let registered = 0;
    const deadline = Date.now() + 600_000;
    while (Date.now() < deadline) {
      registered = await countRegistered(admin);
      if (registered === scale) break;
      // the scheduled pass would pick up what a fast path left: run one when progress stalls
      if (Date.now() - t0 > 60_000) await reconciler.reconcileAll();
      await sleep(500);
    }
    const allRegistered = Date.now() - t0;
    await task?.settled();
    const pulls = await local.listPullRequests();
    const changes = pulls.filter(p => p.merged).length;
    console.log(
      `\n${scale} clusters POSTed in ${(posted / 1000).toFixed(
        1,
      )} s; ${registered} Registered after ${(allRegistered / 1000).toFixed(
        1,
      )} s [goal <= 120 s: ${verdict(
        registered === scale && allRegistered <= 120_000,
      )}; before: 180 s for 1,000 inCluster Clusters]`,
    );
    sockets.stop();
    const c = sockets.census;
    console.log(
      `  connections opened until all Registered: ${c.all} (at most ${c.peakOpen} open at once), of them to the management API ${c.management} (at most ${c.peakManagement} at once)`,
    );
    console.log(
      `  gitops: ${changes} merged changes (pull requests) in all for ${scale} registrations (${
        pulls.length - changes
      } not merged); ${replicas.length} replica(s)${
        task ? `, ${task.runs} scheduled passes triggered by the writes` : ''
      }`,
    );
    if (replicas.length > 1) {
      replicas.forEach((r, i) =>
        console.log(
          `  replica ${i}: ${r.published()} registrations published, management API ${
            r.counter.total
          } requests`,
        ),
      );
    }

    // 2. Steady passes: management requests, connections to the workload API server
    const workloadPorts = new Set(
      aliases.kubeconfigs.map(k =>
        Number(new URL(kubeConfigFromText(k).getCurrentCluster()!.server).port),
      ),
    );
    const profileFile = argText('profile');
    for (const label of ['steady pass', 'steady pass again']) {
      counter.reset();
      probeCounter.reset();
      const cpu0 = process.cpuUsage();
      const { result: pass, opened } = await connectionsTo(workloadPorts, () =>
        label === 'steady pass again' && profileFile
          ? cpuProfile(profileFile, () => reconciler.reconcileAll())
          : reconciler.reconcileAll(),
      );
      const cpu = process.cpuUsage(cpu0);
      console.log(
        `  ${label}: ${(pass.durationMs / 1000).toFixed(2)} s, CPU ${(
          (cpu.user + cpu.system) /
          1e6
        ).toFixed(2)} s; management API ${
          pass.requests
        } requests ${JSON.stringify(pass.requestsByVerb)}; workload API ${
          probeCounter.total
        } requests over ${opened} new connections`,
      );
    }

    // 3. GET /v1/clusters
    const listTimes: number[] = [];
    let bytes = 0;
    for (let i = 0; i < 40; i++) {
      const t = performance.now();
      const res = await fetch(`${base}/v1/clusters`);
      bytes = (await res.arrayBuffer()).byteLength;
      listTimes.push(performance.now() - t);
    }
    listTimes.sort((a, b) => a - b);
    const p95 = percentile(listTimes, 95);
    console.log(
      `  GET /v1/clusters (${scale + 1} clusters, ${Math.round(
        bytes / 1024,
      )} KiB): p50 ${Math.round(
        percentile(listTimes, 50),
      )} ms, p95 ${Math.round(p95)} ms [goal p95 <= 50 ms: ${verdict(
        p95 <= 50,
      )}; before: p50 106 ms, p95 181 ms]`,
    );

    // 3b. A page of 100 (server-side paging, issue 25's goal: p95 <= 50 ms)
    const pageTimes: number[] = [];
    for (let i = 0; i < 40; i++) {
      const t = performance.now();
      const res = await fetch(`${base}/v1/clusters?limit=100`);
      await res.arrayBuffer();
      pageTimes.push(performance.now() - t);
    }
    pageTimes.sort((a, b) => a - b);
    const pageP95 = percentile(pageTimes, 95);
    console.log(
      `  GET /v1/clusters?limit=100: p50 ${Math.round(
        percentile(pageTimes, 50),
      )} ms, p95 ${Math.round(pageP95)} ms [goal p95 <= 50 ms: ${verdict(
        pageP95 <= 50,
      )}]`,
    );

    // 4. A new registration at this scale
    for (let i = 0; i < 5; i++) {
      const name = `scale-new-${i}`;
      const t = performance.now();
      trace.begin();
      const res = await fetch(
        `${replicas[i % replicas.length].base}/v1/clusters`,
        {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({
            name,
            kubeconfig: aliases.kubeconfigs[scale + i],
            flavor: 'k3s',
            provider: 'local',
          }),
        },
      );
      if (res.status !== 201) throw new Error(`POST ${name}: ${res.status}`);
      trace.mark('POST answered');
      for (let j = 0; j < 3000; j++) {
        const got = await admin.must(
          'GET',
          `/apis/infrared.darkshift.io/v1alpha1/clusters/${name}`,
        );
        if (
          got.body.status?.conditions?.some(
            (x: any) => x.type === 'Registered' && x.status === 'True',
          )
        )
          break;
        await sleep(10);
      }
      latencies.push(performance.now() - t);
      trace.end();
    }
    latencies.sort((a, b) => a - b);
    const newP50 = percentile(latencies, 50);
    console.log(
      `  a new registration at this scale: p50 ${Math.round(
        newP50,
      )} ms over 5 [goal <= 250 ms: ${verdict(newP50 <= 250)}]`,
    );
    trace.print();

    // 5. At rest: passes every 30 s (the default interval), CPU and memory; the garbage of the
    // steps before is collected first, so the rest's CPU is the rest's own
    counter.reset();
    global.gc?.();
    const cpuRest0 = process.cpuUsage();
    const restStart = Date.now();
    let passCpuMs = 0;
    let passes = 0;
    const atRest = async () => {
      while (Date.now() - restStart < restSeconds * 1000) {
        const passStart = Date.now();
        const passCpu0 = process.cpuUsage();
        await reconciler.reconcileAll();
        const passCpu = process.cpuUsage(passCpu0);
        passCpuMs += (passCpu.user + passCpu.system) / 1000;
        passes++;
        await sleep(Math.max(0, 30_000 - (Date.now() - passStart)));
      }
    };
    const restProfile = argText('profile-rest');
    await (restProfile ? cpuProfile(restProfile, atRest) : atRest());
    const cpuRest = process.cpuUsage(cpuRest0);
    const restMs = Date.now() - restStart;
    const share = (cpuRest.user + cpuRest.system) / 1000 / restMs;
    global.gc?.();
    const rssAfter = process.memoryUsage().rss;
    const heapAfter = process.memoryUsage().heapUsed;
    console.log(
      `  at rest (a pass every 30 s for ${Math.round(restMs / 1000)} s): ${(
        share * 100
      ).toFixed(1)}% of one core, ${(share * 60).toFixed(
        1,
      )} s CPU a minute [goal <= 3%: ${verdict(
        share <= 0.03,
      )}; before: 12.4 s a minute, 20%]; the ${passes} passes ${(
        passCpuMs / 1000
      ).toFixed(2)} s of it; management API ${JSON.stringify(
        counter.byVerb(),
      )}`,
    );
    console.log(
      `  RSS ${mb(rssBefore)} MB -> ${mb(rssAfter)} MB: +${mb(
        rssAfter - rssBefore,
      )} MB [goal <= +50 MB: ${verdict(
        rssAfter - rssBefore <= 50 * 1024 * 1024,
      )}; before: +280-330 MB]; V8 heap in use ${mb(heapBefore)} MB -> ${mb(
        heapAfter,
      )} MB`,
    );
    console.log(
      `  memory growth by part (MB): ${memoryGrowth(
        memoryBefore,
        memoryParts(),
      )}`,
    );
    const heapFile = argText('heap-snapshot');
    if (heapFile) {
      console.log(`  heap snapshot: ${v8.writeHeapSnapshot(heapFile)}`);
    }
    console.log(`  load average at the end: ${load()}`);
    await task?.settled();
    for (const r of replicas) await r.stop();
  } finally {
    stopAliases();
    await cp.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

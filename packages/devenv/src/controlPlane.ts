import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Binaries, ensureBinaries } from './binaries';
import { KubeClient } from '@infrared-clusters/infrared-kube';
import { ProcRecord, isRunning, stopProcesses } from './processes';
import { startApiserver, startWatchdog, stopApiserver } from './apiserver';
import {
  ports,
  startApiservers,
  startControllerManager,
  startEtcd,
} from './controlPlaneParts';

export interface ClusterInfo {
  name: string;
  server: string;
  /** PEM of the cluster's CA. */
  caData: string;
  /** Admin kubeconfig (client certificate in group system:masters), YAML. */
  kubeconfig: string;
  kubeconfigPath: string;
}

/** What a state file holds: enough for another process to use or stop the control plane. */
export interface ControlPlaneState {
  version: 1;
  baseDir: string;
  /** The base dir is a temp dir removed on stop. */
  ephemeral: boolean;
  startedAt: string;
  etcdUrl: string;
  controllerManager: boolean;
  clusters: { name: string; server: string; kubeconfigPath: string }[];
  processes: ProcRecord[];
  /** The process whose exit stops everything (watchdogs watch it). */
  ownerPid?: number;
  /** Argo CD beside the control plane (`devenv up` of the demo); its processes are named `argocd-*`. */
  argocd?: {
    url: string;
    gitUrl: string;
    namespace: string;
    account: string;
    panelAccount: string;
  };
}

export interface ControlPlane {
  clusters: ClusterInfo[];
  cluster(name: string): ClusterInfo;
  client(name: string): KubeClient;
  state: ControlPlaneState;
  statePath: string;
  stop(): Promise<void>;
  /**
   * Stops one cluster's kube-apiserver in place (etcd, data and certificates stay): a fault for
   * tests. `crash` kills it at once instead of a graceful shutdown.
   */
  stopApiserver(name: string, options?: { crash?: boolean }): Promise<void>;
  /** Starts a stopped kube-apiserver again on the same port; resolves once it is ready. */
  startApiserver(name: string, readyTimeoutMs?: number): Promise<void>;
}

export interface StartOptions {
  /** Cluster names; the first one gets kube-controller-manager. Default: management, workload-a. */
  clusters?: string[];
  /** Persistent folder (etcd data and certs are kept across restarts). Default: a temp dir removed on stop. */
  dataDir?: string;
  /** Where to write the state file. Default: <baseDir>/state.json. */
  statePath?: string;
  /** Cluster i listens on basePort + i when that port is free. Default: random free ports. */
  basePort?: number;
  /** Stop everything when this process (e.g. the jest runner) exits, even without stop(). */
  ownerPid?: number;
  binaries?: Binaries;
  readyTimeoutMs?: number;
  log?: (msg: string) => void;
}

/** The given data dir, else a new temp dir (in /dev/shm where there is one). */
function baseDirFor(dataDir: string | undefined): string {
  if (dataDir) return path.resolve(dataDir);
  const tmp = fs.existsSync('/dev/shm') ? '/dev/shm' : os.tmpdir();
  return fs.mkdtempSync(path.join(tmp, 'infrared-devenv-'));
}

/** Writes the state file; returns its absolute path. */
function writeState(statePath: string, state: ControlPlaneState): string {
  const at = path.resolve(statePath);
  fs.mkdirSync(path.dirname(at), { recursive: true });
  fs.writeFileSync(at, JSON.stringify(state, null, 2));
  return at;
}

/** Starts etcd, one kube-apiserver per cluster and kube-controller-manager on the first cluster. */
export async function startControlPlane(
  opts: StartOptions = {},
): Promise<ControlPlane> {
  const names = opts.clusters ?? ['management', 'workload-a'];
  const log = opts.log ?? (() => {});
  const bins = opts.binaries ?? ensureBinaries();
  const ephemeral = !opts.dataDir;
  const baseDir = baseDirFor(opts.dataDir);
  const logs = path.join(baseDir, 'logs');
  fs.mkdirSync(logs, { recursive: true });
  const readyMs = opts.readyTimeoutMs ?? 60_000;
  const procs: ProcRecord[] = [];
  const cleanup = async () => {
    await stopProcesses(procs);
    if (ephemeral) fs.rmSync(baseDir, { recursive: true, force: true });
  };

  try {
    const apiPorts = await ports(names.length, opts.basePort);
    const etcdUrl = await startEtcd(bins, baseDir, logs, apiPorts, procs);
    log(`etcd up at ${etcdUrl}`);
    const clusters = await startApiservers({
      names,
      apiPorts,
      etcdUrl,
      bins,
      baseDir,
      logs,
      readyMs,
      procs,
    });
    log(
      `kube-apiservers ready: ${clusters
        .map(c => `${c.name} ${c.server}`)
        .join(', ')}`,
    );
    if (bins.kubeControllerManager)
      procs.push(
        startControllerManager(bins.kubeControllerManager, clusters[0], logs),
      );
    else
      log(
        'kube-controller-manager not found: no garbage collection and no Job controller',
      );

    if (opts.ownerPid)
      procs.unshift(
        startWatchdog(opts.ownerPid, procs, ephemeral ? baseDir : undefined),
      );

    const state = {
      version: 1,
      baseDir,
      ephemeral,
      startedAt: new Date().toISOString(),
      etcdUrl,
      controllerManager: !!bins.kubeControllerManager,
      clusters: clusters.map(c => ({
        name: c.name,
        server: c.server,
        kubeconfigPath: c.kubeconfigPath,
      })),
      processes: procs,
      ...(opts.ownerPid ? { ownerPid: opts.ownerPid } : {}),
    } satisfies ControlPlaneState;
    const statePath = writeState(
      opts.statePath ?? path.join(baseDir, 'state.json'),
      state,
    );
    return controlPlaneFrom(state, statePath, clusters);
  } catch (e) {
    await cleanup();
    throw e;
  }
}

function controlPlaneFrom(
  state: ControlPlaneState,
  statePath: string,
  clusters: ClusterInfo[],
): ControlPlane {
  const cluster = (name: string) => {
    const c = clusters.find(x => x.name === name);
    if (!c) throw new Error(`devenv: no cluster named ${name}`);
    return c;
  };
  return {
    clusters,
    cluster,
    client: name => KubeClient.fromKubeconfig(cluster(name).kubeconfig),
    state,
    statePath,
    stop: () => stopControlPlane(statePath, state),
    stopApiserver: (name, options) =>
      stopApiserver({ clusters, state, statePath }, name, options),
    startApiserver: (name, readyTimeoutMs) =>
      startApiserver({ clusters, state, statePath }, name, readyTimeoutMs),
  };
}

export function readState(statePath: string): ControlPlaneState {
  return JSON.parse(fs.readFileSync(statePath, 'utf8'));
}

/** Opens a running control plane from its state file. */
export function openControlPlane(statePath: string): ControlPlane {
  const state = readState(statePath);
  const clusters = state.clusters.map(c => {
    const kubeconfig = fs.readFileSync(c.kubeconfigPath, 'utf8');
    const access = KubeClient.fromKubeconfig(kubeconfig).access;
    return { ...c, caData: access.caData, kubeconfig };
  });
  return controlPlaneFrom(state, path.resolve(statePath), clusters);
}

/** True when every recorded process runs and every kube-apiserver answers /readyz. */
export async function isHealthy(statePath: string): Promise<boolean> {
  try {
    const cp = openControlPlane(statePath);
    // the node agent, Argo CD and the background builds are not part of the control plane:
    // `devenv up` starts them again
    const parts = cp.state.processes.filter(
      p =>
        p.name !== 'watchdog' &&
        p.name !== 'node-agent' &&
        p.name !== 'devenv-prepare' &&
        !p.name.startsWith('argocd-'),
    );
    if (!parts.every(isRunning)) return false;
    const answers = await Promise.all(
      cp.clusters.map(c =>
        cp
          .client(c.name)
          .request('GET', '/readyz', undefined, undefined, 3000)
          .catch(() => undefined),
      ),
    );
    return answers.every(a => a?.status === 200);
  } catch {
    return false;
  }
}

/** Stops by PID what a state file records, removes a temp base dir and the state file. */
export async function stopControlPlane(
  statePath: string,
  known?: ControlPlaneState,
): Promise<void> {
  let state = known;
  if (!state) {
    if (!fs.existsSync(statePath)) return;
    state = readState(statePath);
  }
  const procs = state.processes;
  await stopProcesses(
    procs.filter(p => p.name === 'watchdog'),
    1000,
  );
  await stopProcesses(
    procs.filter(p => p.name !== 'etcd' && p.name !== 'watchdog'),
  );
  await stopProcesses(procs.filter(p => p.name === 'etcd'));
  if (state.ephemeral)
    fs.rmSync(state.baseDir, { recursive: true, force: true });
  fs.rmSync(statePath, { force: true });
}

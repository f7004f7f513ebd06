import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Binaries, ensureBinaries } from './binaries';
import { ensureClusterPki } from './certs';
import { KubeClient, renderKubeconfig } from '@infrared-clusters/infrared-kube';
import {
  ProcRecord,
  freePort,
  isRunning,
  startProcess,
  stopProcesses,
} from './processes';
import {
  apiserverArgs,
  startApiserver,
  startWatchdog,
  stopApiserver,
  waitApiserverReady,
  waitFor,
} from './apiserver';

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

const httpOk = (url: string) =>
  new Promise<boolean>(resolve => {
    const req = http.get(url, { timeout: 2000 }, res => {
      res.resume();
      resolve(res.statusCode === 200);
    });
    req.on('error', () => resolve(false));
    req.on('timeout', () => req.destroy());
  });

async function ports(n: number, base?: number): Promise<number[]> {
  const out: number[] = [];
  while (out.length < n) {
    const p = await freePort(base ? base + out.length : undefined);
    if (!out.includes(p)) out.push(p);
  }
  return out;
}

/** Starts etcd, one kube-apiserver per cluster and kube-controller-manager on the first cluster. */
export async function startControlPlane(
  opts: StartOptions = {},
): Promise<ControlPlane> {
  const names = opts.clusters ?? ['management', 'workload-a'];
  const log = opts.log ?? (() => {});
  const bins = opts.binaries ?? ensureBinaries();
  const ephemeral = !opts.dataDir;
  const baseDir = opts.dataDir
    ? path.resolve(opts.dataDir)
    : fs.mkdtempSync(
        path.join(
          fs.existsSync('/dev/shm') ? '/dev/shm' : os.tmpdir(),
          'infrared-devenv-',
        ),
      );
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
    const [etcdPort, peerPort] = (await ports(2 + names.length)).filter(
      p => !apiPorts.includes(p),
    );
    const etcdUrl = `http://127.0.0.1:${etcdPort}`;
    const peerUrl = `http://127.0.0.1:${peerPort}`;
    const etcd = startProcess(
      'etcd',
      bins.etcd,
      [
        `--data-dir=${path.join(baseDir, 'etcd')}`,
        `--listen-client-urls=${etcdUrl}`,
        `--advertise-client-urls=${etcdUrl}`,
        `--listen-peer-urls=${peerUrl}`,
        `--initial-advertise-peer-urls=${peerUrl}`,
        `--initial-cluster=default=${peerUrl}`,
        '--unsafe-no-fsync',
        '--log-level=warn',
      ],
      path.join(logs, 'etcd.log'),
    );
    procs.push(etcd);
    await waitFor('etcd', etcd, 20_000, () => httpOk(`${etcdUrl}/health`));
    log(`etcd up at ${etcdUrl}`);

    const clusters: ClusterInfo[] = [];
    const apiservers: ProcRecord[] = [];
    names.forEach((name, i) => {
      const dir = path.join(baseDir, name);
      const pki = ensureClusterPki(path.join(dir, 'pki'), name);
      const server = `https://127.0.0.1:${apiPorts[i]}`;
      const caData = fs.readFileSync(pki.caCert, 'utf8');
      const kubeconfig = renderKubeconfig(name, {
        server,
        caData,
        certData: fs.readFileSync(pki.adminCert, 'utf8'),
        keyData: fs.readFileSync(pki.adminKey, 'utf8'),
      });
      const kubeconfigPath = path.join(dir, 'admin.kubeconfig');
      fs.writeFileSync(kubeconfigPath, kubeconfig, { mode: 0o600 });
      const args = apiserverArgs(
        name,
        apiPorts[i],
        etcdUrl,
        pki,
        path.join(dir, 'pki'),
      );
      const proc = startProcess(
        `kube-apiserver/${name}`,
        bins.kubeApiserver,
        args,
        path.join(logs, `kube-apiserver-${name}.log`),
      );
      procs.push(proc);
      apiservers.push(proc);
      clusters.push({ name, server, caData, kubeconfig, kubeconfigPath });
    });
    await Promise.all(
      clusters.map((c, i) =>
        waitApiserverReady(c.name, c.kubeconfig, apiservers[i], readyMs),
      ),
    );
    log(
      `kube-apiservers ready: ${clusters
        .map(c => `${c.name} ${c.server}`)
        .join(', ')}`,
    );

    if (bins.kubeControllerManager) {
      const pki = path.join(baseDir, names[0], 'pki');
      procs.push(
        startProcess(
          'kube-controller-manager',
          bins.kubeControllerManager,
          [
            `--kubeconfig=${clusters[0].kubeconfigPath}`,
            '--controllers=garbage-collector-controller,job-controller,namespace-controller',
            '--leader-elect=false',
            '--secure-port=0',
            '--use-service-account-credentials=false',
            `--root-ca-file=${path.join(pki, 'ca.crt')}`,
            `--service-account-private-key-file=${path.join(pki, 'sa.key')}`,
          ],
          path.join(logs, 'kube-controller-manager.log'),
        ),
      );
    } else {
      log(
        'kube-controller-manager not found: no garbage collection and no Job controller',
      );
    }

    if (opts.ownerPid)
      procs.unshift(
        startWatchdog(opts.ownerPid, procs, ephemeral ? baseDir : undefined),
      );

    const state: ControlPlaneState = {
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
    };
    const statePath = path.resolve(
      opts.statePath ?? path.join(baseDir, 'state.json'),
    );
    fs.mkdirSync(path.dirname(statePath), { recursive: true });
    fs.writeFileSync(statePath, JSON.stringify(state, null, 2));
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

import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { startWatchdog, waitFor } from './apiserver';
import { ArgoCdBinaries, argocdModuleDir, ensureArgoCd } from './argocdBinary';
import { ArgoCdPorts, componentArgs, repoServerEnv } from './argocdArgs';
import { ArgoCdManifestOptions, installArgoCdManifests } from './argocdConfig';
import type { ControlPlane } from './controlPlane';
import { ProcRecord, freePort, startProcess, stopProcesses } from './processes';
import { findRedisServer } from './redis';
import { mintTokensWithin } from './argocdTokens';

/** What `startArgoCd` starts: Argo CD's API on loopback, its API token, and a stop(). */
export interface ArgoCd {
  /** argocd-server's API, plain HTTP on 127.0.0.1 (`--insecure`: no TLS, authentication on). */
  url: string;
  /** The API token of the local account `account` (role:readonly), for `Authorization: Bearer`. */
  token: string;
  account: string;
  /** The API token of `panelAccount`, which may only `get` clusters (the portal's proxy sends it). */
  panelToken: string;
  panelAccount: string;
  namespace: string;
  /** `git://127.0.0.1:<port>/<name>` of `gitRepo`, served by `git daemon`, when one was given. */
  gitUrl?: string;
  /** Folder of redis, the repo-server's checkouts and the logs (removed by stop() when temporary). */
  dir: string;
  /** Named `argocd-*` (ARGOCD_PROCESS_PREFIX): redis, repo-server, application-controller, server, git daemon. */
  processes: ProcRecord[];
  /** Stops every process started here and removes a temporary `dir`; the objects in the cluster stay. */
  stop(): Promise<void>;
}

export interface ArgoCdOptions extends Partial<ArgoCdManifestOptions> {
  /** The cluster Argo CD runs against (its Applications, Secrets, AppProjects). Default: management. */
  cluster?: string;
  /** A bare git repository to serve read-only on loopback with `git daemon` (its URL is `gitUrl`). */
  gitRepo?: string;
  /** The application-controller's resync period, seconds. Default 30. */
  resyncSeconds?: number;
  /** Bound of each component's readiness wait. Default 120 s. */
  readyTimeoutMs?: number;
  /** Stop everything when this process exits, even without stop() (a watchdog). */
  ownerPid?: number;
  /** A folder to keep (logs, redis, the repo-server's data). Default: a temp dir that stop() removes. */
  dir?: string;
  /**
   * Preferred ports on 127.0.0.1: argocd-server on basePort, the git daemon on basePort + 1, redis,
   * repo-server and the metrics ports after them; a busy one is replaced by a free one. Default: all free.
   */
  basePort?: number;
  /** API tokens minted before, by account: kept when Argo CD still accepts them, else minted anew. */
  tokens?: Record<string, string | undefined>;
  binaries?: ArgoCdBinaries;
  log?: (m: string) => void;
}

/** Every process startArgoCd starts is named with this prefix (devenv's state tells them apart by it). */
export const ARGOCD_PROCESS_PREFIX = 'argocd-';

/** Seven distinct free ports on 127.0.0.1, basePort + i when given and free. */
async function allPorts(
  basePort?: number,
): Promise<ArgoCdPorts & { gitPort: number }> {
  const out: number[] = [];
  while (out.length < 7) {
    const preferred = basePort ? basePort + out.length : undefined;
    let p = await freePort(preferred);
    if (out.includes(p)) p = await freePort();
    if (!out.includes(p)) out.push(p);
  }
  const [apiPort, gitPort, redisPort, repoPort, repoMetrics] = out;
  const [apiMetrics, ctlMetrics] = out.slice(5);
  return {
    apiPort,
    gitPort,
    redisPort,
    repoPort,
    repoMetrics,
    apiMetrics,
    ctlMetrics,
  };
}

const httpOk = async (url: string) => {
  const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
  await res.arrayBuffer();
  return res.status === 200;
};

/** True when something answers on 127.0.0.1:port (redis: `PING` gets `+PONG`). */
const redisPong = (port: number) =>
  new Promise<boolean>(resolve => {
    const s = net.connect(port, '127.0.0.1');
    const done = (ok: boolean) => {
      s.destroy();
      resolve(ok);
    };
    s.setTimeout(2000, () => done(false));
    s.on('error', () => done(false));
    s.on('data', d => done(d.toString().startsWith('+PONG')));
    s.on('connect', () => s.write('PING\r\n'));
  });

/**
 * Starts a real Argo CD beside a devenv control plane, as local processes against one of its
 * clusters (default management, namespace `argocd`): Debian's redis-server, argocd-repo-server,
 * argocd-application-controller and argocd-server (API on 127.0.0.1, `--insecure`, authentication
 * on), after applying Argo CD's CRDs and config from the module's own `manifests/`. With `gitRepo`,
 * a `git daemon` serves that bare repository read-only on loopback. Resolves once argocd-server
 * answers and the account's API token is minted.
 */
export async function startArgoCd(
  cp: ControlPlane,
  opts: ArgoCdOptions = {},
): Promise<ArgoCd> {
  const log = opts.log ?? (() => {});
  const cluster = cp.cluster(opts.cluster ?? 'management');
  const namespace = opts.namespace ?? 'argocd';
  const account = opts.account ?? 'infrared';
  const panelAccount = opts.panelAccount ?? 'backstage';
  const bins = opts.binaries ?? ensureArgoCd({ log });
  const redis = findRedisServer(log);
  const readyMs = opts.readyTimeoutMs ?? 120_000;
  const admin = cp.client(cluster.name);
  const config = await installArgoCdManifests(
    cluster,
    admin,
    argocdModuleDir(),
    { namespace, account, panelAccount },
  );
  log(`Argo CD ${config.applied} objects applied in ${namespace}`);

  const temporary = !opts.dir;
  const dir = opts.dir
    ? path.resolve(opts.dir)
    : fs.mkdtempSync(path.join(os.tmpdir(), 'infrared-argocd-'));
  const procs: ProcRecord[] = [];
  const stop = async () => {
    await stopProcesses(procs);
    if (temporary) fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    const start = launcher(dir, procs);
    // a kept dir may hold the last repo-server's askpass socket, which would keep it from listening
    fs.rmSync(path.join(dir, 'ask-pass.sock'), { force: true });
    const p = await allPorts(opts.basePort);
    await startRedis(start, redis, p.redisPort, dir);
    const procsOf = startComponents(start, bins, cluster.kubeconfigPath, dir, {
      ports: p,
      namespace,
      resyncSeconds: opts.resyncSeconds ?? 30,
    });
    const gitUrl = opts.gitRepo
      ? await startGitDaemon(opts.gitRepo, start, p.gitPort)
      : undefined;
    if (opts.ownerPid)
      procs.unshift(
        startWatchdog(opts.ownerPid, [...procs], temporary ? dir : undefined),
      );

    const url = `http://127.0.0.1:${p.apiPort}`;
    await waitComponents(procsOf, url, p, readyMs);
    const tokens = await mintTokensWithin(
      url,
      config.adminPassword,
      [account, panelAccount],
      opts.tokens ?? {},
      procsOf.server,
      readyMs,
    );
    log(
      `Argo CD up: ${url} (namespace ${namespace}, accounts ${account}, ${panelAccount})`,
    );
    return {
      url,
      token: tokens[account],
      account,
      panelToken: tokens[panelAccount],
      panelAccount,
      namespace,
      gitUrl,
      dir,
      processes: procs,
      stop,
    };
  } catch (e) {
    await stop();
    throw e;
  }
}

type Start = (
  name: string,
  exe: string,
  args: string[],
  env?: NodeJS.ProcessEnv,
) => ProcRecord;

/** Starts detached processes with their logs in `<dir>/logs` and TMPDIR `<dir>/tmp`, recorded in `procs`. */
function launcher(dir: string, procs: ProcRecord[]): Start {
  fs.mkdirSync(path.join(dir, 'logs'), { recursive: true });
  fs.mkdirSync(path.join(dir, 'tmp'), { recursive: true });
  return (name, exe, args, env = {}) => {
    const proc = startProcess(
      name,
      exe,
      args,
      path.join(dir, 'logs', `${name}.log`),
      {
        cwd: dir,
        env: { ...process.env, TMPDIR: path.join(dir, 'tmp'), ...env },
      },
    );
    procs.push(proc);
    return proc;
  };
}

/** redis-server on 127.0.0.1, nothing persisted; resolves once it answers PING. */
async function startRedis(
  start: Start,
  redis: string,
  port: number,
  dir: string,
): Promise<void> {
  const proc = start('argocd-redis', redis, [
    ...['--bind', '127.0.0.1', '--port', String(port)],
    ...['--save', '', '--appendonly', 'no', '--dir', dir],
    // keep argv as started: devenv recognises its processes by it (isRunning)
    ...['--set-proc-title', 'no'],
  ]);
  await waitFor('redis-server', proc, 20_000, () => redisPong(port));
}

/** argocd-repo-server, argocd-application-controller and argocd-server, started (not yet ready). */
function startComponents(
  start: Start,
  bins: ArgoCdBinaries,
  kubeconfigPath: string,
  dir: string,
  o: { ports: ArgoCdPorts; namespace: string; resyncSeconds: number },
) {
  const args = componentArgs(
    o.ports,
    kubeconfigPath,
    o.namespace,
    o.resyncSeconds,
  );
  // The in-cluster destination (https://kubernetes.default.svc, the registry Applications') is the
  // cluster of KUBECONFIG, as from a pod: without this Argo CD wants KUBERNETES_SERVICE_HOST.
  const inCluster = {
    KUBECONFIG: kubeconfigPath,
    ARGOCD_FAKE_IN_CLUSTER: 'true',
  };
  return {
    repo: start(
      'argocd-repo-server',
      bins.repoServer,
      args.repoServer,
      repoServerEnv(bins, kubeconfigPath, dir),
    ),
    controller: start(
      'argocd-application-controller',
      bins.applicationController,
      args.applicationController,
      inCluster,
    ),
    server: start('argocd-server', bins.server, args.server, inCluster),
  };
}

/** Waits, each bounded by `readyMs`, until the three components answer their /healthz. */
async function waitComponents(
  p: { repo: ProcRecord; controller: ProcRecord; server: ProcRecord },
  url: string,
  ports_: ArgoCdPorts,
  readyMs: number,
): Promise<void> {
  await Promise.all([
    waitFor('argocd-repo-server', p.repo, readyMs, () =>
      httpOk(`http://127.0.0.1:${ports_.repoMetrics}/healthz?full=true`),
    ),
    waitFor('argocd-application-controller', p.controller, readyMs, () =>
      httpOk(`http://127.0.0.1:${ports_.ctlMetrics}/healthz`),
    ),
    waitFor('argocd-server', p.server, readyMs, () => httpOk(`${url}/healthz`)),
  ]);
}

/** `git daemon` serving the bare repository's folder read-only on 127.0.0.1; resolves to its URL. */
async function startGitDaemon(
  gitRepo: string,
  start: Start,
  port: number,
): Promise<string> {
  const repo = path.resolve(gitRepo);
  fs.mkdirSync(path.dirname(repo), { recursive: true });
  const proc = start('argocd-git-daemon', 'git', [
    'daemon',
    '--export-all',
    '--reuseaddr',
    '--listen=127.0.0.1',
    `--port=${port}`,
    `--base-path=${path.dirname(repo)}`,
    path.dirname(repo),
  ]);
  await waitFor(
    'git daemon',
    proc,
    20_000,
    () =>
      new Promise<boolean>(resolve => {
        const s = net.connect(port, '127.0.0.1');
        s.on('connect', () => {
          s.destroy();
          resolve(true);
        });
        s.on('error', () => resolve(false));
      }),
  );
  return `git://127.0.0.1:${port}/${path.basename(repo)}`;
}

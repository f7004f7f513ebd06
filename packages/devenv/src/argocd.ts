import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { tail, startWatchdog, waitFor } from './apiserver';
import { ArgoCdBinaries, argocdModuleDir, ensureArgoCd } from './argocdBinary';
import { ArgoCdPorts, componentArgs, repoServerEnv } from './argocdArgs';
import { ArgoCdManifestOptions, installArgoCdManifests } from './argocdConfig';
import type { ControlPlane } from './controlPlane';
import { ProcRecord, freePort, startProcess, stopProcesses } from './processes';
import { findRedisServer } from './redis';

/** What `startArgoCd` starts: Argo CD's API on loopback, its API token, and a stop(). */
export interface ArgoCd {
  /** argocd-server's API, plain HTTP on 127.0.0.1 (`--insecure`: no TLS, authentication on). */
  url: string;
  /** The API token of the local account `account` (role:readonly), for `Authorization: Bearer`. */
  token: string;
  account: string;
  namespace: string;
  /** `git://127.0.0.1:<port>/<name>` of `gitRepo`, served by `git daemon`, when one was given. */
  gitUrl?: string;
  /** Temporary folder of redis, the repo-server's checkouts and the logs (removed by stop()). */
  dir: string;
  processes: ProcRecord[];
  /** Stops every process started here and removes `dir`; the objects in the cluster stay. */
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
  binaries?: ArgoCdBinaries;
  log?: (m: string) => void;
}

const sleep = (ms: number) => new Promise(r => setTimeout(r, ms));

/** Six distinct free ports on 127.0.0.1. */
async function allPorts(): Promise<ArgoCdPorts> {
  const out: number[] = [];
  while (out.length < 6) {
    const p = await freePort();
    if (!out.includes(p)) out.push(p);
  }
  const [redisPort, repoPort, repoMetrics, apiPort, apiMetrics, ctlMetrics] =
    out;
  return { redisPort, repoPort, repoMetrics, apiPort, apiMetrics, ctlMetrics };
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

/** POST of JSON to argocd-server; a non-2xx answer throws with its message (never the body sent). */
async function post(url: string, body: unknown, bearer?: string) {
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      ...(bearer ? { Authorization: `Bearer ${bearer}` } : {}),
    },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(15_000),
  });
  const answer: any = await res.json().catch(() => ({}));
  if (!res.ok) {
    throw new Error(
      `devenv: POST ${new URL(url).pathname} -> ${res.status}: ${
        answer.message ?? ''
      }`,
    );
  }
  return answer;
}

/**
 * The local account's API token, minted the way an Argo CD admin does it: a session with the
 * initial admin password argocd-server wrote into `argocd-initial-admin-secret`, then
 * `POST /api/v1/account/<account>/token`.
 */
async function mintToken(
  url: string,
  adminPassword: () => Promise<string>,
  account: string,
): Promise<string> {
  const session = await post(`${url}/api/v1/session`, {
    username: 'admin',
    password: await adminPassword(),
  });
  const minted = await post(
    `${url}/api/v1/account/${account}/token`,
    { name: account, id: `devenv-${Date.now().toString(36)}` },
    session.token,
  );
  return minted.token;
}

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
  const bins = opts.binaries ?? ensureArgoCd({ log });
  const redis = findRedisServer(log);
  const readyMs = opts.readyTimeoutMs ?? 120_000;
  const admin = cp.client(cluster.name);
  const config = await installArgoCdManifests(
    cluster,
    admin,
    argocdModuleDir(),
    { namespace, account },
  );
  log(`Argo CD ${config.applied} objects applied in ${namespace}`);

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'infrared-argocd-'));
  const procs: ProcRecord[] = [];
  const stop = async () => {
    await stopProcesses(procs);
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    const start = launcher(dir, procs);
    const p = await allPorts();
    await startRedis(start, redis, p.redisPort, dir);
    const procsOf = startComponents(start, bins, cluster.kubeconfigPath, dir, {
      ports: p,
      namespace,
      resyncSeconds: opts.resyncSeconds ?? 30,
    });
    const gitUrl = opts.gitRepo
      ? await startGitDaemon(opts.gitRepo, start)
      : undefined;
    if (opts.ownerPid)
      procs.unshift(startWatchdog(opts.ownerPid, [...procs], dir));

    const url = `http://127.0.0.1:${p.apiPort}`;
    await waitComponents(procsOf, url, p, readyMs);
    const token = await mintTokenWithin(
      url,
      config.adminPassword,
      account,
      procsOf.server,
      readyMs,
    );
    log(`Argo CD up: ${url} (namespace ${namespace}, account ${account})`);
    return {
      url,
      token,
      account,
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
  fs.mkdirSync(path.join(dir, 'logs'));
  fs.mkdirSync(path.join(dir, 'tmp'));
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
  const proc = start('redis', redis, [
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

/** Token minting, retried while argocd-server has not yet written the initial admin password. */
async function mintTokenWithin(
  url: string,
  adminPassword: () => Promise<string>,
  account: string,
  server: ProcRecord,
  timeoutMs: number,
): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (let attempt = 1; ; attempt++) {
    try {
      return await mintToken(url, adminPassword, account);
    } catch (e) {
      if (Date.now() > deadline || attempt >= 60) {
        throw new Error(
          `devenv: no API token for Argo CD account ${account} after ${attempt} attempts: ${
            (e as Error).message
          }\n${tail(server.log)}`,
        );
      }
      await sleep(1000);
    }
  }
}

/** `git daemon` serving the bare repository's folder read-only on 127.0.0.1; resolves to its URL. */
async function startGitDaemon(gitRepo: string, start: Start): Promise<string> {
  const repo = path.resolve(gitRepo);
  const port = await freePort();
  const proc = start('git-daemon', 'git', [
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

import fs from 'node:fs';
import { KubeClient } from '@infrared-clusters/infrared-kube';
import type { ClusterPki } from './certs';
import {
  ProcRecord,
  isRunning,
  startProcess,
  stopProcesses,
} from './processes';

/** What a restart of one kube-apiserver needs of the control plane's state. */
export interface ApiserverHost {
  clusters: { name: string; kubeconfig: string }[];
  state: { processes: ProcRecord[]; ownerPid?: number };
  statePath: string;
}

const sleep = (ms: number) => new Promise(r => setTimeout(r, ms));

export function tail(file?: string, lines = 15): string {
  try {
    return fs
      .readFileSync(file!, 'utf8')
      .trimEnd()
      .split('\n')
      .slice(-lines)
      .join('\n');
  } catch {
    return '';
  }
}

/** Polls `probe` every 250 ms until it holds, the process exits, or `timeoutMs` passes. */
export async function waitFor(
  what: string,
  proc: ProcRecord,
  timeoutMs: number,
  probe: () => Promise<boolean>,
) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!isRunning(proc))
      throw new Error(`devenv: ${what} exited:\n${tail(proc.log)}`);
    if (await probe().catch(() => false)) return;
    await sleep(250);
  }
  throw new Error(
    `devenv: ${what} not ready after ${timeoutMs / 1000}s:\n${tail(proc.log)}`,
  );
}

/** Resolves once the kube-apiserver behind `kubeconfig` answers /readyz with 200. */
export function waitApiserverReady(
  name: string,
  kubeconfig: string,
  proc: ProcRecord,
  timeoutMs: number,
): Promise<void> {
  const client = KubeClient.fromKubeconfig(kubeconfig);
  return waitFor(
    `kube-apiserver ${name}`,
    proc,
    timeoutMs,
    async () =>
      (await client.request('GET', '/readyz', undefined, undefined, 3000))
        .status === 200,
  );
}

export function apiserverArgs(
  name: string,
  port: number,
  etcdUrl: string,
  pki: ClusterPki,
  certDir: string,
) {
  return [
    `--etcd-servers=${etcdUrl}`,
    `--etcd-prefix=/${name}/registry`,
    `--cert-dir=${certDir}`,
    `--tls-cert-file=${pki.servingCert}`,
    `--tls-private-key-file=${pki.servingKey}`,
    `--client-ca-file=${pki.caCert}`,
    `--secure-port=${port}`,
    '--bind-address=127.0.0.1',
    '--advertise-address=127.0.0.1',
    '--authorization-mode=RBAC',
    '--allow-privileged=true',
    '--disable-admission-plugins=ServiceAccount',
    '--service-cluster-ip-range=10.0.0.0/24',
    '--service-account-issuer=https://kubernetes.default.svc.cluster.local',
    `--service-account-key-file=${pki.saPublicKey}`,
    `--service-account-signing-key-file=${pki.saPrivateKey}`,
    '--endpoint-reconciler-type=none',
    '--profiling=false',
  ];
}

/** A shell loop that stops the processes once `ownerPid` is gone (the jest runner was killed, say). */
export function startWatchdog(
  ownerPid: number,
  procs: ProcRecord[],
  removeDir?: string,
): ProcRecord {
  const pids = procs.map(p => p.pid).join(' ');
  const script =
    `while kill -0 ${ownerPid} 2>/dev/null; do sleep 1; done; kill -TERM ${pids} 2>/dev/null; sleep 5; ` +
    `kill -KILL ${pids} 2>/dev/null; ${
      removeDir ? `rm -rf '${removeDir}'` : 'true'
    }`;
  return startProcess('watchdog', '/bin/sh', ['-c', script], '/dev/null');
}

function apiserverRecord(host: ApiserverHost, name: string): ProcRecord {
  const proc = host.state.processes.find(
    p => p.name === `kube-apiserver/${name}`,
  );
  if (!proc) throw new Error(`devenv: no kube-apiserver for cluster ${name}`);
  return proc;
}

/**
 * Stops one cluster's kube-apiserver, leaving etcd, its data and its certificates: SIGTERM (a
 * graceful shutdown), or with `crash` SIGKILL at once (requests in flight get no answer).
 */
export async function stopApiserver(
  host: ApiserverHost,
  name: string,
  options: { crash?: boolean } = {},
): Promise<void> {
  await stopProcesses([apiserverRecord(host, name)], options.crash ? 0 : 5000);
}

/**
 * Starts a stopped kube-apiserver again with the arguments it had (the same port, certificates
 * and etcd prefix) and resolves once it answers /readyz. The state file records the new process.
 */
export async function startApiserver(
  host: ApiserverHost,
  name: string,
  readyTimeoutMs = 60_000,
): Promise<void> {
  const old = apiserverRecord(host, name);
  if (isRunning(old))
    throw new Error(`devenv: kube-apiserver ${name} is still running`);
  if (!old.args)
    throw new Error(`devenv: kube-apiserver ${name} has no recorded arguments`);
  const proc = startProcess(
    old.name,
    old.exe,
    old.args,
    old.log ?? '/dev/null',
  );
  const { processes, ownerPid } = host.state;
  processes[processes.indexOf(old)] = proc;
  if (ownerPid) processes.unshift(startWatchdog(ownerPid, [proc]));
  fs.writeFileSync(host.statePath, JSON.stringify(host.state, null, 2));
  const cluster = host.clusters.find(c => c.name === name)!;
  await waitApiserverReady(name, cluster.kubeconfig, proc, readyTimeoutMs);
}

import type { ArgoCd } from '@internal/devenv';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** The Argo CD components a fault test stops and starts again. */
export type ArgoCdComponent = 'argocd-application-controller' | 'argocd-server';

const sleep = (ms: number) => new Promise(r => setTimeout(r, ms));

function running(pid: number, exe: string): boolean {
  try {
    const argv0 = fs
      .readFileSync(`/proc/${pid}/cmdline`, 'utf8')
      .split('\0')[0];
    const state = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return argv0 === exe && !/^\d+ \(.*\) [ZX]/.test(state);
  } catch {
    return false;
  }
}

function record(argo: ArgoCd, name: ArgoCdComponent) {
  const recs = argo.processes.filter(p => p.name === name);
  const rec = recs[recs.length - 1];
  if (!rec?.args) throw new Error(`no ${name} among Argo CD's processes`);
  return rec;
}

/**
 * Stops one component of devenv's Argo CD (SIGTERM, then SIGKILL after 5 s), the others left
 * running: the fault "Argo CD's <component> is down". Resolves once it is gone.
 */
export async function stopArgoCdComponent(
  argo: ArgoCd,
  name: ArgoCdComponent,
): Promise<void> {
  const rec = record(argo, name);
  if (!running(rec.pid, rec.exe)) return;
  process.kill(rec.pid, 'SIGTERM');
  const deadline = Date.now() + 5000;
  while (running(rec.pid, rec.exe) && Date.now() < deadline) await sleep(100);
  if (running(rec.pid, rec.exe)) process.kill(rec.pid, 'SIGKILL');
  while (running(rec.pid, rec.exe)) await sleep(50);
}

/** The component's /healthz: argocd-server's on its API port, the controller's on its metrics port. */
export function componentHealthz(argo: ArgoCd, name: ArgoCdComponent): string {
  if (name === 'argocd-server') return `${argo.url}/healthz`;
  const args = record(argo, name).args!;
  return `http://127.0.0.1:${args[args.indexOf('--metrics-port') + 1]}/healthz`;
}

const answers = async (url: string) => {
  const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
  await res.arrayBuffer();
  return res.status === 200;
};

/**
 * Starts a component stopped by stopArgoCdComponent again, as devenv's startArgoCd started it: the
 * same binary and arguments, and its environment (the in-cluster destination from `--kubeconfig`,
 * as startArgoCd gives argocd-server and the application-controller). The new process joins
 * `argo.processes`, so `argo.stop()` stops it; a watchdog stops it when this test process ends.
 * Resolves once its /healthz answers 200.
 */
export async function startArgoCdComponent(
  argo: ArgoCd,
  name: ArgoCdComponent,
  timeoutMs = 120_000,
): Promise<void> {
  const rec = record(argo, name);
  const healthz = componentHealthz(argo, name);
  if (running(rec.pid, rec.exe)) throw new Error(`${name} still runs`);
  const args = rec.args!;
  const kubeconfig = args[args.indexOf('--kubeconfig') + 1];
  const log = rec.log ?? path.join(argo.dir, `${name}.restarted.log`);
  const fd = fs.openSync(log, 'a');
  const child = spawn(rec.exe, args, {
    detached: true,
    stdio: ['ignore', fd, fd],
    cwd: argo.dir,
    env: {
      ...process.env,
      TMPDIR: path.join(argo.dir, 'tmp'),
      KUBECONFIG: kubeconfig,
      ARGOCD_FAKE_IN_CLUSTER: 'true',
    },
  });
  fs.closeSync(fd);
  child.unref();
  if (!child.pid) throw new Error(`could not start ${name}`);
  argo.processes.push({ ...rec, pid: child.pid });
  const watchdog = spawn(
    '/bin/sh',
    [
      '-c',
      `while kill -0 ${process.pid} 2>/dev/null; do sleep 1; done; kill -TERM ${child.pid} 2>/dev/null`,
    ],
    { detached: true, stdio: 'ignore' },
  );
  watchdog.unref();
  const deadline = Date.now() + timeoutMs;
  while (!(await answers(healthz).catch(() => false))) {
    if (!running(child.pid, rec.exe)) {
      throw new Error(`${name} exited after its restart (log ${log})`);
    }
    if (Date.now() > deadline) {
      throw new Error(`${name} not ready ${timeoutMs} ms after its restart`);
    }
    await sleep(250);
  }
}

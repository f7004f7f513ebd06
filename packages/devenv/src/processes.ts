import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';

/** A process this package started, recorded with the binary so a PID reused by another program is never killed. */
export interface ProcRecord {
  name: string;
  pid: number;
  exe: string;
  log?: string;
  /** The arguments it was started with, so it can be started again the same way. */
  args?: string[];
}

/** Starts a long-running binary in its own process group, logging to a file; it outlives this process. */
export function startProcess(
  name: string,
  exe: string,
  args: string[],
  log: string,
  options: { env?: NodeJS.ProcessEnv; cwd?: string } = {},
): ProcRecord {
  const fd = fs.openSync(log, 'a');
  const child = spawn(exe, args, {
    detached: true,
    stdio: ['ignore', fd, fd],
    ...options,
  });
  fs.closeSync(fd);
  child.unref();
  if (!child.pid) throw new Error(`devenv: could not start ${exe}`);
  return { name, pid: child.pid, exe, log, args };
}

/** True while `pid` runs `exe`: a PID reused by another program is never taken for ours. */
export function isRunning(rec: Pick<ProcRecord, 'pid' | 'exe'>): boolean {
  try {
    const argv0 = fs
      .readFileSync(`/proc/${rec.pid}/cmdline`, 'utf8')
      .split('\0')[0];
    return argv0 === rec.exe && !exited(rec.pid);
  } catch {
    return false;
  }
}

/** Gone, or a zombie whose threads have all ended (so its ports and files are released). */
function exited(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    if (!/^\d+ \(.*\) [ZX]/.test(stat)) return false;
    return fs.readdirSync(`/proc/${pid}/task`).length <= 1;
  } catch {
    return true;
  }
}

const sleep = (ms: number) => new Promise(r => setTimeout(r, ms));

/** SIGTERM, then SIGKILL after `graceMs` (at once when 0: a crash); resolves when all are gone. */
export async function stopProcesses(
  recs: ProcRecord[],
  graceMs = 5000,
): Promise<void> {
  const ours = recs.filter(isRunning).map(r => r.pid);
  const alive = () => ours.filter(pid => !exited(pid));
  const signal = (sig: NodeJS.Signals) => {
    for (const pid of alive()) {
      try {
        process.kill(pid, sig);
      } catch {
        // already gone
      }
    }
  };
  if (graceMs > 0) signal('SIGTERM');
  const deadline = Date.now() + graceMs;
  while (alive().length && Date.now() < deadline) await sleep(100);
  if (alive().length) {
    signal('SIGKILL');
    const hard = Date.now() + 10000;
    while (alive().length && Date.now() < hard) await sleep(50);
  }
}

/** Resident set size in bytes of the given processes (0 for those that are gone). */
export function rssBytes(recs: ProcRecord[]): number {
  let total = 0;
  for (const r of recs.filter(isRunning)) {
    const m = /VmRSS:\s+(\d+) kB/.exec(
      fs.readFileSync(`/proc/${r.pid}/status`, 'utf8'),
    );
    if (m) total += Number(m[1]) * 1024;
  }
  return total;
}

/** A free TCP port on 127.0.0.1; `preferred` is used when it is free. */
export function freePort(preferred?: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', err =>
      preferred ? freePort().then(resolve, reject) : reject(err),
    );
    srv.listen(preferred ?? 0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

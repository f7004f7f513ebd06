/* `devenv up`'s side of `devenv prepare`: start it when the demo lacks a build, once. */
import fs from 'node:fs';
import path from 'node:path';
import type { ControlPlane } from './controlPlane';
import {
  PREPARE_STATUS_FILE,
  demoBuilds,
  initialItems,
  isPreparing,
  preparingEnv,
  writeStatus,
} from './prepare';
import { isRunning, startProcess } from './processes';

/** The name `devenv prepare` is recorded under in the state. */
export const PREPARE_PROCESS = 'devenv-prepare';

/**
 * Starts `devenv prepare` (detached, recorded in the state so `devenv down` stops it) when the demo
 * lacks tofu or Argo CD and none runs yet; else leaves the status file saying what is ready. Says
 * what it does, with the log to follow.
 */
export function ensurePreparing(
  cp: ControlPlane,
  statePath: string,
  dataDir: string,
  say: (m: string) => void,
): void {
  const statusFile = path.join(dataDir, PREPARE_STATUS_FILE);
  const specs = demoBuilds();
  const missing = specs.filter(s => !s.built());
  const running = cp.state.processes.find(
    p => p.name === PREPARE_PROCESS && isRunning(p),
  );
  if (isPreparing() || running) return;
  if (!missing.length) {
    writeStatus(statusFile, initialItems(specs));
    return;
  }
  const log = path.join(cp.state.baseDir, 'logs', 'prepare.log');
  fs.mkdirSync(path.dirname(log), { recursive: true });
  writeStatus(statusFile, initialItems(specs), { log });
  // eslint-disable-next-line no-restricted-syntax -- this package runs from source, it is never bundled
  const cli = path.resolve(__dirname, '..', 'bin', 'devenv.js');
  const proc = startProcess(
    PREPARE_PROCESS,
    process.execPath,
    [cli, 'prepare'],
    log,
    {
      env: preparingEnv(),
    },
  );
  cp.state.processes.push(proc);
  fs.writeFileSync(statePath, JSON.stringify(cp.state, null, 2));
  const minutes = Math.ceil(
    missing.reduce((s, m) => s + m.typicalSeconds, 0) / 60,
  );
  say(
    `devenv: building ${missing
      .map(m => m.title)
      .join(
        ' and ',
      )} in the background (cold: about ${minutes} min on 2 cores); each starts when built, with no restart. The portal shows the progress; log: ${log}`,
  );
}

import fs from 'node:fs';
import { isHealthy, startControlPlane } from '../controlPlane';
import { STATE_ENV } from '../testing';

/** Marks, for globalTeardown in the same process, the control plane that this process started. */
export const STARTED_KEY = '__INFRARED_DEVENV_STARTED__';

/** Jest globalSetup: reuse the control plane named by INFRARED_DEVENV_STATE, or start one. */
export default async function globalSetup(): Promise<void> {
  const existing = process.env[STATE_ENV];
  if (existing && fs.existsSync(existing) && (await isHealthy(existing)))
    return;
  if (existing)
    process.stderr.write(
      `devenv: ${STATE_ENV}=${existing} is not a running control plane; starting one\n`,
    );
  const started = Date.now();
  const cp = await startControlPlane({
    clusters: ['management', 'workload-a'],
    ownerPid: process.pid,
  });
  process.env[STATE_ENV] = cp.statePath;
  (globalThis as any)[STARTED_KEY] = [
    ...((globalThis as any)[STARTED_KEY] ?? []),
    cp.statePath,
  ];
  process.stderr.write(
    `\ndevenv: control plane up in ${((Date.now() - started) / 1000).toFixed(
      1,
    )}s (${cp.statePath})\n`,
  );
}

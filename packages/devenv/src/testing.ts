import fs from 'node:fs';
import path from 'node:path';
import { ControlPlane, openControlPlane } from './controlPlane';

/** The env var naming the state file of the control plane that tests share. */
export const STATE_ENV = 'INFRARED_DEVENV_STATE';

/**
 * The control plane started by the devenv jest globalSetup (or by `devenv up --state <file>`).
 * Tests share it: isolate by namespace and name, and don't call stop().
 */
export function getTestControlPlane(): ControlPlane {
  const statePath = process.env[STATE_ENV];
  if (!statePath) {
    throw new Error(
      `devenv: ${STATE_ENV} is not set; use @internal/devenv's jest globalSetup or run \`devenv up --state <file>\``,
    );
  }
  return openControlPlane(statePath);
}

/**
 * Removes a test's temporary directory, retrying while another process still writes in it (a
 * backend's kept `git update-ref --stdin` may still hold a lock for up to a second after it stops).
 */
export function removeTestDir(dir: string): void {
  fs.rmSync(dir, {
    recursive: true,
    force: true,
    maxRetries: 10,
    retryDelay: 200,
  });
}

/** A name unique enough to isolate one test's objects in the shared clusters. */
export function uniqueName(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${Math.random()
    .toString(36)
    .slice(2, 6)}`;
}

/** Where fault tests append how long each fault took to recover (git-ignored). */
export const FAULT_RECOVERY_FILE = path.resolve(
  // eslint-disable-next-line no-restricted-syntax -- this package runs from source, it is never bundled
  __dirname,
  '../../../test-results/fault-recovery.jsonl',
);

/**
 * Prints how long a fault took to recover and appends it to FAULT_RECOVERY_FILE: figures for the
 * closing note of issue 17, never asserted.
 */
export function recordRecovery(
  fault: string,
  figures: Record<string, number>,
): void {
  const line = JSON.stringify({ fault, ...figures });
  // eslint-disable-next-line no-console
  console.log(`fault recovery: ${line}`);
  fs.mkdirSync(path.dirname(FAULT_RECOVERY_FILE), { recursive: true });
  fs.appendFileSync(FAULT_RECOVERY_FILE, `${line}\n`);
}

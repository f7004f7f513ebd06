import type { LoggerService } from '@backstage/backend-plugin-api';
import { join } from 'node:path';
import lockfile from 'proper-lockfile';

/** The lock directory inside the bare repository (git ignores names it does not know). */
const LOCK_NAME = 'infrared-publish.lock';

/**
 * Runs `fn` holding a lock on the repository shared by every process (backend replicas on one host or
 * one volume), so their publishes take turns: without it, two writers merging many changes at once
 * keep moving the default branch under each other until one gives up. A lock left by a process that
 * died is taken over once stale (10 s without its refresh). The compare-and-swap on the default
 * branch still guards every merge: when the lock cannot be had within about a minute, or is lost,
 * the publish goes on without it.
 */
export async function withProcessLock<T>(
  repository: string,
  fn: () => Promise<T>,
  logger?: LoggerService,
): Promise<T> {
  let release: (() => Promise<void>) | undefined;
  try {
    release = await lockfile.lock(repository, {
      lockfilePath: join(repository, LOCK_NAME),
      realpath: false,
      stale: 10_000,
      // bounded: about 300 tries over a minute
      retries: { retries: 300, minTimeout: 10, maxTimeout: 250, factor: 1.3 },
      onCompromised: error =>
        logger?.warn(
          `gitops: lost the lock of ${repository} (${error.message}); the merge still checks the branch did not move`,
        ),
    });
  } catch (error) {
    logger?.warn(
      `gitops: could not lock ${repository} (${
        (error as Error).message
      }); publishing without the lock`,
    );
  }
  try {
    return await fn();
  } finally {
    await release?.().catch(() => undefined);
  }
}

import pLimit from 'p-limit';

/**
 * Runs `fn` over `items` with at most `limit` at a time (at least one), in order; stops taking new items once
 * `signal` aborts. p-limit (major 3, the last that loads as CommonJS) holds the queue: an item's slot is free
 * again when the promise `fn` returned settles, which the cluster reconciler relies on (its `fn` resolves
 * before the item's work ends, so a slot is held only while the item waits for the item lock).
 *
 * @public
 */
export async function forEachLimited<T>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<void>,
  signal?: AbortSignal,
): Promise<void> {
  const slot = pLimit(Math.max(1, Math.floor(limit)));
  await Promise.all(
    items.map(item =>
      slot(async () => (signal?.aborted ? undefined : fn(item))),
    ),
  );
}

/**
 * Runs async work one at a time per key, in the order it was asked for; other keys run in parallel. A failure
 * does not stop the work queued after it. Used for one Cluster reconciled at a time, one gitops repository
 * written at a time, in this process. Kept by hand rather than p-limit or p-queue: those bound how many run
 * at once, not an order per key; a map of one-at-a-time queues would be these lines again plus a dependency,
 * and `busy(key)` and the map's clean-up would still be ours.
 *
 * @public
 */
export class KeyedLock {
  private readonly tails = new Map<string, Promise<unknown>>();

  /** Whether work for `key` is running or queued. */
  busy(key: string): boolean {
    return this.tails.has(key);
  }

  async run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const result = previous.then(fn, fn);
    const tail = result.catch(() => undefined);
    this.tails.set(key, tail);
    try {
      return await result;
    } finally {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }
}

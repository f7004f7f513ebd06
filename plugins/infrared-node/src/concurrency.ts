/**
 * Runs `fn` over `items` with at most `limit` at a time; stops taking new items once `signal` aborts.
 *
 * @public
 */
export async function forEachLimited<T>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<void>,
  signal?: AbortSignal,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length && !signal?.aborted) {
      const item = items[next++];
      await fn(item);
    }
  };
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, worker),
  );
}

/**
 * Runs async work one at a time per key, in the order it was asked for; other keys run in parallel. A failure
 * does not stop the work queued after it. Used for one Cluster reconciled at a time, one gitops repository
 * written at a time, in this process.
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

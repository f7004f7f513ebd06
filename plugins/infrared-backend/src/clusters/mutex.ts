/** Runs async work one at a time per key (one Cluster reconciled once at a time in this process). */
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

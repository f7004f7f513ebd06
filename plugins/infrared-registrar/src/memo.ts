import { createHash } from 'node:crypto';

/** Every memo of this process, for `sweepStringMemos`. */
const memos = new Set<StringMemo<unknown>>();

/**
 * A memo for pure functions of a (large) string, keyed by its SHA-256. Every pass re-reads every
 * kubeconfig (that is what keeps rotated credentials fresh); parsing identical bytes again would only
 * burn CPU. It keeps what the last full pass used: a sweep after each full pass forgets the entries
 * no pass asked for since the sweep before. A bound on the entries would make a fleet larger than
 * the bound miss on every entry of every pass (a pass asks in the same order each time), so the
 * bound (`limit`) only starts a new generation early, for callers that never sweep.
 */
export class StringMemo<T> {
  /** Asked for since the last sweep. */
  private live = new Map<string, T>();
  /** Asked for before the last sweep, not since. */
  private older = new Map<string, T>();

  constructor(private readonly limit = 100_000) {
    memos.add(this as StringMemo<unknown>);
  }

  get(text: string, compute: () => T): T {
    const key = createHash('sha256').update(text).digest('base64');
    const hit = this.live.get(key);
    if (hit !== undefined) return hit;
    const kept = this.older.get(key);
    if (kept !== undefined) this.older.delete(key);
    const value = kept !== undefined ? kept : compute();
    if (this.live.size >= this.limit) this.sweep();
    this.live.set(key, value);
    return value;
  }

  /** Forgets what was not asked for since the last sweep; the rest waits one more. */
  sweep(): void {
    this.older = this.live;
    this.live = new Map();
  }

  get size(): number {
    return this.live.size + this.older.size;
  }
}

/** After a full pass: every memo forgets what two full passes in a row did not use. */
export function sweepStringMemos(): void {
  for (const memo of memos) memo.sweep();
}

import { createHash } from 'node:crypto';

/**
 * A bounded memo for pure functions of a (large) string: keyed by its SHA-256, least recently
 * used entries dropped first. Every pass re-reads every kubeconfig (that is what keeps rotated
 * credentials fresh); parsing identical bytes again would only burn CPU.
 */
export class StringMemo<T> {
  private readonly entries = new Map<string, T>();

  constructor(private readonly limit = 10_000) {}

  get(text: string, compute: () => T): T {
    const key = createHash('sha256').update(text).digest('base64');
    const hit = this.entries.get(key);
    if (hit !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit;
    }
    const value = compute();
    this.entries.set(key, value);
    if (this.entries.size > this.limit) {
      this.entries.delete(this.entries.keys().next().value!);
    }
    return value;
  }
}

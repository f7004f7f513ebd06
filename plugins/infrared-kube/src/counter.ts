/**
 * Counts the requests a client sends, by verb; the reconcile benchmark prints it.
 *
 * @public
 */
export class RequestCounter {
  private counts = new Map<string, number>();

  /** Records one request. */
  count(method: string): void {
    const verb = method.toUpperCase();
    this.counts.set(verb, (this.counts.get(verb) ?? 0) + 1);
  }

  get total(): number {
    let total = 0;
    for (const n of this.counts.values()) total += n;
    return total;
  }

  /** Requests per verb, e.g. `{ GET: 3, PUT: 1 }`. */
  byVerb(): Record<string, number> {
    return Object.fromEntries([...this.counts].sort());
  }

  reset(): void {
    this.counts.clear();
  }
}

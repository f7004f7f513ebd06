/**
 * JSON with every object's keys sorted (and undefined values left out): two objects the API server
 * would store alike give the same text, so a planner can tell whether a write would change anything.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_k, v) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(
          Object.keys(v)
            .sort()
            .filter(k => v[k] !== undefined)
            .map(k => [k, v[k]]),
        )
      : v,
  );
}

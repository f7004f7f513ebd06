import { useEffect } from 'react';

/** The longest wait between automatic refreshes. */
export const MAX_POLL_DELAY_MS = 30_000;

/**
 * Refreshes every `pollIntervalMs` while `active`, one request at a time: the next one is
 * scheduled only after the last one answered (`generation` counts the answers). While the answers
 * stay the same (`unchanged` in a row: a cluster stuck on an unreachable server), the wait doubles
 * up to 30 s. Returns the current wait.
 */
export function useListPolling(options: {
  active: boolean;
  generation: number;
  unchanged: number;
  pollIntervalMs: number;
  refresh: () => void;
}): number {
  const { active, generation, unchanged, pollIntervalMs, refresh } = options;
  const delay = Math.min(
    pollIntervalMs * 2 ** Math.min(unchanged, 16),
    Math.max(MAX_POLL_DELAY_MS, pollIntervalMs),
  );
  useEffect(() => {
    if (!active) return undefined;
    const timer = setTimeout(refresh, delay);
    return () => clearTimeout(timer);
  }, [active, generation, refresh, delay]);
  return delay;
}

import { useCallback, useEffect, useRef, useState } from 'react';
import { useApi } from '@backstage/frontend-plugin-api';
import type { ClusterView } from '@infrared-clusters/plugin-infrared-common';
import { infraredApiRef } from '../api';
import { isInProgress } from '../lib/clusterStatus';

export interface ClusterListState {
  /** The last list that loaded; kept while a refresh fails. */
  clusters?: ClusterView[];
  /** The last load's error, cleared by the next success. */
  error?: Error;
  loading: boolean;
  /** How many clusters are still registering (Connected or Registered not True). */
  inProgress: number;
  /** The wait before the next automatic refresh, while any cluster is in progress. */
  pollDelayMs: number;
  /** Loads the list now. */
  refresh: () => Promise<void>;
  /** Drops a cluster from the shown list at once (after a successful DELETE). */
  forget: (name: string) => void;
}

/** The longest wait between automatic refreshes. */
export const MAX_POLL_DELAY_MS = 30_000;

/**
 * Loads every cluster, and loads again every `pollIntervalMs` while any cluster is in progress.
 * One request at a time: the next one is scheduled only after the last one answered. While the
 * answers stay the same (a cluster stuck on an unreachable server), the wait doubles up to 30 s.
 */
export function useClusterList(pollIntervalMs: number): ClusterListState {
  const api = useApi(infraredApiRef);
  const [clusters, setClusters] = useState<ClusterView[]>();
  const [error, setError] = useState<Error>();
  const [loading, setLoading] = useState(true);
  const [generation, setGeneration] = useState(0);
  const [unchanged, setUnchanged] = useState(0);
  const lastAnswer = useRef<string>();
  const mounted = useRef(true);

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  // The first request leaves while the page renders, not after the app's first commit and paint:
  // on a cold load the table shows ~50 ms sooner (bench/ui). It is a GET, so a second one from a
  // StrictMode double render is harmless.
  const firstRequest = useRef<Promise<ClusterView[]> | 'taken'>();
  if (firstRequest.current === undefined) {
    firstRequest.current = api.listClusters();
    // Awaited by the first load; this only keeps an early failure from being reported as unhandled.
    firstRequest.current.catch(() => undefined);
  }

  const load = useCallback(
    async (pending?: Promise<ClusterView[]>) => {
      setLoading(true);
      try {
        const items = await (pending ?? api.listClusters());
        if (!mounted.current) return;
        const answer = JSON.stringify(items);
        const same = answer === lastAnswer.current;
        setUnchanged(n => (same ? n + 1 : 0));
        lastAnswer.current = answer;
        // The same answer keeps the same array, so the table does not render again.
        if (!same) setClusters(items);
        setError(undefined);
      } catch (e) {
        if (mounted.current) setError(e as Error);
      } finally {
        if (mounted.current) {
          setLoading(false);
          setGeneration(g => g + 1);
        }
      }
    },
    [api],
  );
  const refresh = useCallback(() => load(), [load]);

  useEffect(() => {
    const pending = firstRequest.current;
    firstRequest.current = 'taken';
    load(pending === 'taken' ? undefined : pending);
  }, [load]);

  const inProgress = clusters?.filter(isInProgress).length ?? 0;
  // Keep polling after a failed refresh while something was in progress: the backend may be restarting.
  const shouldPoll = inProgress > 0;

  const pollDelayMs = Math.min(
    pollIntervalMs * 2 ** Math.min(unchanged, 16),
    Math.max(MAX_POLL_DELAY_MS, pollIntervalMs),
  );

  useEffect(() => {
    if (!shouldPoll || loading) return undefined;
    const timer = setTimeout(refresh, pollDelayMs);
    return () => clearTimeout(timer);
  }, [shouldPoll, loading, generation, refresh, pollDelayMs]);

  const forget = useCallback((name: string) => {
    // The shown list no longer matches the last answer: the next answer is applied whatever it is.
    lastAnswer.current = undefined;
    setClusters(list => list?.filter(c => c.name !== name));
  }, []);

  return { clusters, error, loading, inProgress, pollDelayMs, refresh, forget };
}

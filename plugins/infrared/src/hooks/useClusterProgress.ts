import { useEffect, useState } from 'react';
import { useApi } from '@backstage/frontend-plugin-api';
import type { ClusterView } from '@infrared-clusters/plugin-infrared-common';
import { infraredApiRef } from '../api';
import { isRegistered } from '../lib/clusterStatus';

export interface ClusterProgress {
  cluster: ClusterView;
  /** The last poll's error (the cluster shown is the last one read). */
  error?: Error;
  done: boolean;
}

/** Polls one cluster every `pollIntervalMs` until Connected and Registered are both True. */
export function useClusterProgress(
  initial: ClusterView,
  pollIntervalMs: number,
): ClusterProgress {
  const api = useApi(infraredApiRef);
  const [cluster, setCluster] = useState(initial);
  const [error, setError] = useState<Error>();
  const [tick, setTick] = useState(0);
  const done = isRegistered(cluster);

  useEffect(() => {
    if (done) return undefined;
    let cancelled = false;
    const timer = setTimeout(async () => {
      try {
        const next = await api.getCluster(initial.name);
        if (!cancelled) {
          setCluster(next);
          setError(undefined);
        }
      } catch (e) {
        if (!cancelled) setError(e as Error);
      } finally {
        if (!cancelled) setTick(t => t + 1);
      }
    }, pollIntervalMs);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [api, initial.name, pollIntervalMs, done, tick]);

  return { cluster, error, done };
}

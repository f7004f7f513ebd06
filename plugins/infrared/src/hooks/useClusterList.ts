import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useApi } from '@backstage/frontend-plugin-api';
import type {
  ClusterListParams,
  ClusterView,
  InfraredApi,
} from '@infrared-clusters/plugin-infrared-common';
import { infraredApiRef } from '../api';
import { isInProgress } from '../lib/clusterStatus';
import {
  isFiltered,
  listParams,
  type ClustersQuery,
} from '../lib/clustersQuery';
import {
  PAGE_SIZE,
  readClusters,
  withNextPage,
  withoutCluster,
  type LoadedClusters,
} from './clusterPages';
import { useListPolling } from './useListPolling';

export interface ClusterListState {
  /** The clusters loaded so far for the query (its first pages); kept while a refresh fails. */
  clusters?: ClusterView[];
  /** How many clusters match the query, over every page. */
  total: number;
  /** How many clusters there are with no filter. */
  overall: number;
  /** Whether more clusters follow the loaded ones. */
  hasMore: boolean;
  /** Loads the next page (no-op while one loads or when none follows). */
  loadMore: () => void;
  loadingMore: boolean;
  /** The last load's error, cleared by the next success. */
  error?: Error;
  loading: boolean;
  /** How many clusters are still registering (Connected or Registered not True). */
  inProgress: number;
  /** The wait before the next automatic refresh, while any cluster is in progress. */
  pollDelayMs: number;
  /** Counts the loads that answered (a refresh, a new query). */
  generation: number;
  /** Loads the loaded range again now. */
  refresh: () => Promise<void>;
  /** Drops a cluster from the shown list at once (after a successful DELETE). */
  forget: (name: string) => void;
}

/** Whether the component is still mounted (for answers that arrive after it left). */
function useMounted() {
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);
  return mounted;
}

/** The query's GET /v1/clusters parameters, the same object while the query asks the same. */
function useParams(query: ClustersQuery) {
  const key = JSON.stringify(listParams(query));
  const params = useMemo(() => JSON.parse(key) as ClusterListParams, [key]);
  return { key, params, filtered: isFiltered(query) };
}

/**
 * The loads of the query's first pages: the first one, one each time the query changes, and
 * `refresh` (the loaded range again). An answer to a load that a newer one replaced is dropped;
 * the same answer twice keeps the same object, so the table does not render again.
 */
function useLoads(api: InfraredApi, query: ClustersQuery) {
  const { key, params, filtered } = useParams(query);
  const [list, setList] = useState<LoadedClusters>();
  const [error, setError] = useState<Error>();
  const [loading, setLoading] = useState(true);
  const [generation, setGeneration] = useState(0);
  const [unchanged, setUnchanged] = useState(0);
  const shown = useRef<LoadedClusters>();
  shown.current = list;
  const lastAnswer = useRef<string>();
  const mounted = useMounted();
  // Every load and next page takes a number; an answer to an older one is dropped.
  const seq = useRef(0);

  // The first request leaves while the page renders, not after the app's first commit and paint
  // (on a cold load the table shows ~50 ms sooner; bench/ui). A GET: a StrictMode double is harmless.
  const firstRequest = useRef<Promise<LoadedClusters> | 'taken'>();
  if (firstRequest.current === undefined) {
    firstRequest.current = readClusters(api, params, filtered);
    firstRequest.current.catch(() => undefined); // awaited by the first load
  }

  const load = useCallback(
    async (pending?: Promise<LoadedClusters>) => {
      const mine = ++seq.current;
      const last = shown.current;
      const count = last?.key === key ? last.items.length : PAGE_SIZE;
      setLoading(true);
      try {
        const answer = await (pending ??
          readClusters(api, params, filtered, count));
        if (!mounted.current || mine !== seq.current) return;
        const text = JSON.stringify(answer);
        const same = text === lastAnswer.current;
        setUnchanged(n => (same ? n + 1 : 0));
        lastAnswer.current = text;
        if (!same) setList(answer);
        setError(undefined);
      } catch (e) {
        if (mounted.current && mine === seq.current) setError(e as Error);
      } finally {
        if (mounted.current && mine === seq.current) {
          setLoading(false);
          setGeneration(g => g + 1);
        }
      }
    },
    [api, key, params, filtered, mounted],
  );
  const refresh = useCallback(() => load(), [load]);

  useEffect(() => {
    const pending = firstRequest.current;
    firstRequest.current = 'taken';
    load(pending === 'taken' ? undefined : pending);
  }, [load]);

  return {
    ...{ params, list, setList, error, setError, loading, generation },
    ...{ unchanged, refresh, shown, seq, mounted, lastAnswer },
  };
}

/**
 * The clusters of a query (search, filters, sort: answered by the backend), one page of 100 at a
 * time: `loadMore` follows the `continue` of the last page. A new query loads its first page (the
 * last answer stays shown until it comes). While any loaded cluster is in progress, the loaded
 * range is read again every `pollIntervalMs` (see useListPolling).
 */
export function useClusterList(
  query: ClustersQuery,
  pollIntervalMs: number,
): ClusterListState {
  const api = useApi(infraredApiRef);
  const loads = useLoads(api, query);
  const { params, list, setList, error, setError, loading } = loads;
  const { generation, unchanged, refresh, shown, seq, mounted, lastAnswer } =
    loads;

  const { loadMore, loadingMore } = useNextPage(api, params, {
    shown,
    seq,
    mounted,
    onPage: next => {
      lastAnswer.current = undefined;
      setList(next);
    },
    onError: setError,
  });

  const clusters = list?.items;
  const inProgress = useMemo(
    () => clusters?.filter(isInProgress).length ?? 0,
    [clusters],
  );
  // Keep polling after a failed refresh while something was in progress: the backend may be restarting.
  const pollDelayMs = useListPolling({
    active: inProgress > 0 && !loading,
    generation,
    unchanged,
    pollIntervalMs,
    refresh,
  });

  const forget = useCallback(
    (name: string) => {
      // The shown list no longer matches the last answer: the next answer is applied whatever it is.
      lastAnswer.current = undefined;
      setList(l => l && withoutCluster(l, name));
    },
    [lastAnswer, setList],
  );

  return {
    clusters,
    total: list?.total ?? 0,
    overall: list?.overall ?? 0,
    hasMore: !!list?.next,
    loadMore,
    loadingMore,
    error,
    loading,
    inProgress,
    pollDelayMs,
    generation,
    refresh,
    forget,
  };
}

/** `loadMore`: the page after the loaded ones, appended unless a load started meanwhile. */
function useNextPage(
  api: InfraredApi,
  params: ClusterListParams,
  refs: {
    shown: { current?: LoadedClusters };
    seq: { current: number };
    mounted: { current: boolean };
    onPage: (list: LoadedClusters) => void;
    onError: (e: Error) => void;
  },
) {
  const [loadingMore, setLoadingMore] = useState(false);
  const busy = useRef(false);
  const { shown, seq, mounted, onPage, onError } = refs;
  const latest = useRef({ onPage, onError });
  latest.current = { onPage, onError };
  const loadMore = useCallback(() => {
    const list = shown.current;
    if (!list?.next || busy.current) return;
    busy.current = true;
    setLoadingMore(true);
    const mine = seq.current;
    api
      .listClusterPage({ ...params, limit: PAGE_SIZE, continue: list.next })
      .then(page => {
        if (mounted.current && mine === seq.current && shown.current === list)
          latest.current.onPage(withNextPage(list, page));
      })
      .catch(e => {
        if (mounted.current && mine === seq.current) latest.current.onError(e);
      })
      .finally(() => {
        busy.current = false;
        if (mounted.current) setLoadingMore(false);
      });
  }, [api, params, shown, seq, mounted]);
  return { loadMore, loadingMore };
}

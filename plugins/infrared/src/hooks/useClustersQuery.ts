import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import {
  DEFAULT_QUERY,
  readClustersQuery,
  writeClustersQuery,
  type ClustersQuery,
} from '../lib/clustersQuery';

/** How long the search box waits for the next keystroke before it asks the backend. */
export const SEARCH_DEBOUNCE_MS = 300;

export interface ClustersQueryState {
  /** What the list asks the backend for, as the URL says. */
  query: ClustersQuery;
  /** The search box's text: ahead of `query.search` while the user types. */
  text: string;
  setText: (text: string) => void;
  /** Changes filters or sort at once (the URL is replaced, not pushed). */
  update: (change: Partial<ClustersQuery>) => void;
  /** Drops the search and the filters (the sort stays). */
  clear: () => void;
}

/**
 * The Clusters page's search, filters and sort, kept in the URL (`?search=&status=&org=&sort=&order=`)
 * so a reload or a shared link shows the same view. Typing in the search box changes the URL
 * once the user pauses (SEARCH_DEBOUNCE_MS).
 */
export function useClustersQuery(): ClustersQueryState {
  const [params, setParams] = useSearchParams();
  const url = params.toString();
  const query = useMemo(
    () => readClustersQuery(new URLSearchParams(url)),
    [url],
  );
  const update = useCallback(
    (change: Partial<ClustersQuery>) =>
      setParams(
        prev =>
          writeClustersQuery(prev, { ...readClustersQuery(prev), ...change }),
        { replace: true },
      ),
    [setParams],
  );

  const [text, setTextState] = useState(query.search);
  // The search the URL has from this hook: a different one came from outside (back, a link).
  const written = useRef(query.search);
  useEffect(() => {
    if (query.search === written.current) return;
    written.current = query.search;
    setTextState(query.search);
  }, [query.search]);
  useEffect(() => {
    if (text === written.current) return undefined;
    const timer = setTimeout(() => {
      written.current = text;
      update({ search: text });
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text, update]);

  const clear = useCallback(() => {
    written.current = '';
    setTextState('');
    update({ search: '', status: DEFAULT_QUERY.status, org: undefined });
  }, [update]);

  return { query, text, setText: setTextState, update, clear };
}

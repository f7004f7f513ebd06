import type { ClusterView } from '../../api/views';
import { filterClusters, type StatusFilter } from './filterClusters';
import {
  compareSortPositions,
  sortClusters,
  sortPosition,
  type SortDirection,
  type SortKey,
  type SortValue,
} from './sortClusters';

/**
 * What GET /v1/clusters is asked for: filters, a sort and, with `limit`, a page.
 *
 * @public
 */
export interface ClusterListQuery {
  search?: string;
  status?: StatusFilter;
  /** Only these clusters (an organization's allowlist); undefined: no such filter. */
  names?: ReadonlySet<string>;
  sort?: SortKey;
  order?: SortDirection;
  limit?: number;
  /** The `continue` of the previous page, as `pageClusters` made it. */
  continue?: string;
}

/** @public */
export interface ClusterListPage {
  items: ClusterView[];
  /** How many clusters match the filters, over every page. */
  total: number;
  continue?: string;
}

/** @public */
export class ContinueTokenError extends Error {}

interface Token {
  /** The filters and sort the token goes with. */
  f: string;
  /** The sort position of the page's last cluster. */
  at: [SortValue | null, string];
}

const filtersOf = (query: ClusterListQuery) =>
  JSON.stringify([
    query.search ?? '',
    query.status ?? 'all',
    query.names ? [...query.names].sort() : null,
    query.sort ?? 'name',
    query.order ?? 'asc',
  ]);

// base64url without Buffer: this module also runs in the browser
const toBase64Url = (text: string) =>
  btoa(String.fromCharCode(...new TextEncoder().encode(text)))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
const fromBase64Url = (text: string) =>
  new TextDecoder().decode(
    Uint8Array.from(atob(text.replace(/-/g, '+').replace(/_/g, '/')), c =>
      c.charCodeAt(0),
    ),
  );

function readToken(text: string, filters: string): Token['at'] {
  let token: Token;
  try {
    token = JSON.parse(fromBase64Url(text));
  } catch {
    throw new ContinueTokenError('is not a continue token this API gave');
  }
  if (!Array.isArray(token?.at) || typeof token.at[1] !== 'string') {
    throw new ContinueTokenError('is not a continue token this API gave');
  }
  if (token.f !== filters) {
    throw new ContinueTokenError(
      'belongs to other filters or another sort: ask for the first page again',
    );
  }
  return token.at;
}

const writeToken = (filters: string, at: [SortValue, string]) =>
  toBase64Url(
    JSON.stringify({ f: filters, at: [at[0] ?? null, at[1]] } satisfies Token),
  );

/** The clusters of a list that match a query's filters, sorted as it asks. */
function sortedMatches(
  clusters: readonly ClusterView[],
  query: ClusterListQuery,
): ClusterView[] {
  const chosen = query.names
    ? clusters.filter(c => query.names!.has(c.name))
    : [...clusters];
  return sortClusters(
    filterClusters(chosen, query.search ?? '', query.status ?? 'all'),
    query.sort ?? 'name',
    query.order ?? 'asc',
  );
}

/** The index of the first cluster sorted after `position` (a binary search: `matching` is sorted). */
function firstAfter(
  matching: readonly ClusterView[],
  position: [SortValue, string],
  key: SortKey,
  direction: SortDirection,
): number {
  let low = 0;
  let high = matching.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    const order = compareSortPositions(
      sortPosition(matching[middle], key),
      position,
      direction,
    );
    if (order > 0) high = middle;
    else low = middle + 1;
  }
  return low;
}

/** A page of the sorted matches `matchesFor` gives for the query's filters. */
function pageOf(
  query: ClusterListQuery,
  matchesFor: (filters: string) => ClusterView[],
): ClusterListPage {
  const filters = filtersOf(query);
  const key = query.sort ?? 'name';
  const direction = query.order ?? 'asc';
  const after = query.continue ? readToken(query.continue, filters) : undefined;
  const matching = matchesFor(filters);
  const start = after
    ? firstAfter(matching, [after[0] ?? undefined, after[1]], key, direction)
    : 0;
  const end = query.limit === undefined ? matching.length : start + query.limit;
  const items = matching.slice(start, end);
  const last = items.at(-1);
  return {
    items,
    total: matching.length,
    ...(end < matching.length && last
      ? { continue: writeToken(filters, sortPosition(last, key)) }
      : {}),
  };
}

/**
 * The clusters a query asks for. A page resumes after the previous page's last sort position
 * (not at an offset), so a cluster created or removed between two pages shifts nothing: a cluster
 * present throughout is in exactly one page (unless its own sort value changed meanwhile).
 *
 * @public
 */
export function pageClusters(
  clusters: readonly ClusterView[],
  query: ClusterListQuery,
): ClusterListPage {
  return pageOf(query, () => sortedMatches(clusters, query));
}

/** At most this many filter sets are kept sorted per list. */
const KEPT_SORTS = 16;

/**
 * `pageClusters` over lists that are never changed once made (a backend's watch cache gives the
 * same array while nothing changed): each list's sorted matches are kept per filter set, so a page
 * costs a search, not a sort of the whole list (issue 25: 10,000 clusters sorted again for every
 * page of 100). A list changed in place after a page would answer stale pages: give a new array.
 *
 * @public
 */
export class KeptClusterPages {
  private readonly sortedByList = new WeakMap<
    readonly ClusterView[],
    Map<string, ClusterView[]>
  >();

  /** The page of `clusters` the query asks for, as `pageClusters` answers it. */
  page(
    clusters: readonly ClusterView[],
    query: ClusterListQuery,
  ): ClusterListPage {
    return pageOf(query, filters => this.matches(clusters, query, filters));
  }

  private matches(
    clusters: readonly ClusterView[],
    query: ClusterListQuery,
    filters: string,
  ): ClusterView[] {
    let kept = this.sortedByList.get(clusters);
    if (!kept) {
      kept = new Map();
      this.sortedByList.set(clusters, kept);
    }
    let matching = kept.get(filters);
    if (!matching) {
      matching = sortedMatches(clusters, query);
      if (kept.size >= KEPT_SORTS) kept.delete(kept.keys().next().value!);
      kept.set(filters, matching);
    }
    return matching;
  }
}

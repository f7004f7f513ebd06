import {
  SORT_KEYS,
  STATUS_FILTERS,
  type ClusterListParams,
  type SortDirection,
  type SortKey,
  type StatusFilter,
  validateOrganizationName,
} from '@infrared-clusters/plugin-infrared-common';

/**
 * What the Clusters page shows: the search text, the status and org filters and the sort, as
 * GET /v1/clusters takes them. Kept in the page's URL under the API's own parameter names, so a
 * reload or a link restores the view.
 */
export interface ClustersQuery {
  search: string;
  status: StatusFilter;
  /** Only the clusters on this Organization's allowlist. */
  org?: string;
  sort: SortKey;
  order: SortDirection;
}

export const DEFAULT_QUERY: ClustersQuery = {
  search: '',
  status: 'all',
  sort: 'name',
  order: 'asc',
};

/** The URL parameters the page owns (the others, such as `register`, are left as they are). */
const PARAMS = ['search', 'status', 'org', 'sort', 'order'] as const;

const oneOf = <T extends string>(
  values: readonly T[],
  value: string | null,
  fallback: T,
): T =>
  value !== null && values.includes(value as T) ? (value as T) : fallback;

/** The query a URL asks for; a value the API would refuse falls back to the default. */
export function readClustersQuery(params: URLSearchParams): ClustersQuery {
  const org = params.get('org') ?? '';
  return {
    search: (params.get('search') ?? '').slice(0, 200),
    status: oneOf(
      STATUS_FILTERS.map(s => s.value),
      params.get('status'),
      'all',
    ),
    ...(org && !validateOrganizationName(org) ? { org } : {}),
    sort: oneOf(SORT_KEYS, params.get('sort'), 'name'),
    order: oneOf(['asc', 'desc'] as const, params.get('order'), 'asc'),
  };
}

/** `params` with the page's parameters set to `query` (defaults left out), the others kept. */
export function writeClustersQuery(
  params: URLSearchParams,
  query: ClustersQuery,
): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const name of PARAMS) {
    const value = query[name] ?? '';
    if (value === '' || value === DEFAULT_QUERY[name]) next.delete(name);
    else next.set(name, value);
  }
  return next;
}

/** GET /v1/clusters's filters and sort for the query (defaults left out). */
export function listParams(query: ClustersQuery): ClusterListParams {
  const search = query.search.trim();
  return {
    ...(search ? { search } : {}),
    ...(query.status !== 'all' ? { status: query.status } : {}),
    ...(query.org ? { org: query.org } : {}),
    ...(query.sort !== 'name' ? { sort: query.sort } : {}),
    ...(query.order !== 'asc' ? { order: query.order } : {}),
  };
}

/** Whether the query leaves clusters out (a sort alone does not). */
export function isFiltered(query: ClustersQuery): boolean {
  return query.search.trim() !== '' || query.status !== 'all' || !!query.org;
}

import type {
  ClusterListParams,
  ClusterView,
  InfraredApi,
} from '@infrared-clusters/plugin-infrared-common';

/** How many clusters a page of the table asks for (the first one and each next one). */
export const PAGE_SIZE = 100;
/** The largest page GET /v1/clusters answers. */
const MAX_LIMIT = 1000;

/** The clusters loaded for one query: its first pages, in the backend's order. */
export interface LoadedClusters {
  /** The query the pages belong to (GET /v1/clusters's filters and sort, as JSON). */
  key: string;
  items: ClusterView[];
  /** How many clusters match the query, over every page. */
  total: number;
  /** Set while more clusters follow: the next page's `continue`. */
  next?: string;
  /** How many clusters there are with no filter. */
  overall: number;
}

/**
 * The first `count` clusters of a query (at least one page), in pages of up to 1,000, and, when the
 * query filters, how many clusters there are in all (a page of one with no filter, in parallel).
 */
export async function readClusters(
  api: Pick<InfraredApi, 'listClusterPage'>,
  params: ClusterListParams,
  filtered: boolean,
  count: number = PAGE_SIZE,
): Promise<LoadedClusters> {
  const all = filtered ? api.listClusterPage({ limit: 1 }) : undefined;
  all?.catch(() => undefined); // awaited below; only keeps it from being reported unhandled
  const items: ClusterView[] = [];
  let total = 0;
  let next: string | undefined;
  do {
    const want = Math.max(PAGE_SIZE, count - items.length);
    const page = await api.listClusterPage({
      ...params,
      limit: Math.min(MAX_LIMIT, want),
      ...(next ? { continue: next } : {}),
    });
    items.push(...page.items);
    total = page.total;
    next = page.continue;
  } while (next && items.length < count);
  return {
    key: JSON.stringify(params),
    items,
    total,
    ...(next ? { next } : {}),
    overall: all ? (await all).total : total,
  };
}

/** `list` with the next page appended (a cluster already listed is not listed twice). */
export function withNextPage(
  list: LoadedClusters,
  page: { items: ClusterView[]; total: number; continue?: string },
): LoadedClusters {
  const known = new Set(list.items.map(c => c.name));
  const { next: _, ...rest } = list;
  return {
    ...rest,
    items: [...list.items, ...page.items.filter(c => !known.has(c.name))],
    total: page.total,
    ...(page.continue ? { next: page.continue } : {}),
  };
}

/** `list` without the named cluster (after a successful DELETE), its counts one lower. */
export function withoutCluster(
  list: LoadedClusters,
  name: string,
): LoadedClusters {
  if (!list.items.some(c => c.name === name)) return list;
  return {
    ...list,
    items: list.items.filter(c => c.name !== name),
    total: Math.max(0, list.total - 1),
    overall: Math.max(0, list.overall - 1),
  };
}

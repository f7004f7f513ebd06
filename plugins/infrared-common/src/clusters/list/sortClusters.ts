import type { ClusterView } from '../../api/views';
import { conditionState } from './state';

/**
 * The columns the Clusters page (and GET /v1/clusters `sort`) sorts by.
 *
 * @public
 */
export const SORT_KEYS = [
  'name',
  'type',
  'placement',
  'connected',
  'registered',
  'kubernetesVersion',
  'nodes',
  'argoServer',
  'gitopsPath',
] as const;

/** @public */
export type SortKey = (typeof SORT_KEYS)[number];

/** @public */
export type SortDirection = 'asc' | 'desc';

const STATE_ORDER = { False: 0, Unknown: 1, Pending: 2, True: 3 };

/**
 * Compares text with numbers in it numerically ("v1.31.2" after "v1.9.0"). One collator for all:
 * `localeCompare` with options builds a collator per call, which costs ~0.5 s at 1,000 clusters.
 */
const collator = new Intl.Collator('en', { numeric: true });

const KEYS: Record<SortKey, (c: ClusterView) => string | number | undefined> = {
  name: c => c.name,
  type: c => (c.discovered ? 'discovered' : c.type),
  placement: c => [c.flavor, c.provider, c.region].join('/'),
  connected: c => STATE_ORDER[conditionState(c, 'Connected')],
  registered: c => STATE_ORDER[conditionState(c, 'Registered')],
  kubernetesVersion: c => c.kubernetesVersion,
  nodes: c => c.nodes,
  argoServer: c => c.argoServer,
  gitopsPath: c => c.gitopsPath,
};

/** @public */
export type SortValue = string | number | undefined;

/**
 * Where a cluster sorts by `key`: its value in that column and its name (ties go by name).
 *
 * @public
 */
export function sortPosition(
  cluster: ClusterView,
  key: SortKey,
): [SortValue, string] {
  return [KEYS[key](cluster), cluster.name];
}

/**
 * The order of two sort positions: missing values last in either direction, then by name.
 *
 * @public
 */
export function compareSortPositions(
  [a, nameA]: [SortValue, string],
  [b, nameB]: [SortValue, string],
  direction: SortDirection,
): number {
  if (a === undefined && b !== undefined) return 1;
  if (b === undefined && a !== undefined) return -1;
  let order = 0;
  if (typeof a === 'number' && typeof b === 'number') order = a - b;
  else if (a !== undefined && b !== undefined)
    order = collator.compare(String(a), String(b));
  return (
    (direction === 'asc' ? order : -order) || collator.compare(nameA, nameB)
  );
}

/**
 * A sorted copy; missing values last in either direction, then by name.
 *
 * @public
 */
export function sortClusters(
  clusters: ClusterView[],
  key: SortKey,
  direction: SortDirection,
): ClusterView[] {
  return clusters
    .map(cluster => ({ cluster, at: sortPosition(cluster, key) }))
    .sort((x, y) => compareSortPositions(x.at, y.at, direction))
    .map(({ cluster }) => cluster);
}

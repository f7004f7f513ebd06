import type { ClusterView } from '@infrared-clusters/plugin-infrared-common';
import { conditionState } from './clusterStatus';

export type SortKey =
  | 'name'
  | 'type'
  | 'placement'
  | 'connected'
  | 'registered'
  | 'kubernetesVersion'
  | 'nodes'
  | 'argoServer'
  | 'gitopsPath';

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

/** A sorted copy; missing values last in either direction, then by name. */
export function sortClusters(
  clusters: ClusterView[],
  key: SortKey,
  direction: SortDirection,
): ClusterView[] {
  const read = KEYS[key];
  const sign = direction === 'asc' ? 1 : -1;
  return [...clusters].sort((x, y) => {
    const a = read(x);
    const b = read(y);
    if (a === undefined && b !== undefined) return 1;
    if (b === undefined && a !== undefined) return -1;
    let order = 0;
    if (typeof a === 'number' && typeof b === 'number') order = a - b;
    else if (a !== undefined && b !== undefined)
      order = collator.compare(String(a), String(b));
    return order * sign || collator.compare(x.name, y.name);
  });
}

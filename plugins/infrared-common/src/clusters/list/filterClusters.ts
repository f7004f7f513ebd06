import type { ClusterView } from '../../api/views';
import { conditionState } from './state';

/**
 * The Clusters page's status filters (GET /v1/clusters `status`).
 *
 * @public
 */
export const STATUS_FILTERS = [
  { value: 'all', label: 'All' },
  { value: 'connected', label: 'Connected' },
  { value: 'not-connected', label: 'Not connected' },
  { value: 'not-registered', label: 'Not registered' },
  { value: 'discovered', label: 'Discovered' },
] as const;

/** @public */
export type StatusFilter = (typeof STATUS_FILTERS)[number]['value'];

const STATUS_TESTS: Record<StatusFilter, (c: ClusterView) => boolean> = {
  all: () => true,
  connected: c => conditionState(c, 'Connected') === 'True',
  'not-connected': c => conditionState(c, 'Connected') !== 'True',
  'not-registered': c => conditionState(c, 'Registered') !== 'True',
  discovered: c => !!c.discovered,
};

const searchTexts = new WeakMap<ClusterView, string>();

/** The text a search term is matched against: everything the table shows (cached per answer). */
function searchText(c: ClusterView): string {
  let text = searchTexts.get(c);
  if (text === undefined) {
    text = haystack(c);
    searchTexts.set(c, text);
  }
  return text;
}

function haystack(c: ClusterView): string {
  return [
    c.name,
    c.type,
    c.flavor,
    c.provider,
    c.region,
    c.server,
    c.kubernetesVersion,
    c.argoServer,
    c.gitopsPath,
    c.discovered ? `discovered ${c.discovered.sourceNamespace}` : '',
    ...c.conditions.map(x => x.reason),
  ]
    .filter(Boolean)
    .join('\n')
    .toLowerCase();
}

/**
 * Clusters that match every word of `text` (case-insensitive) and the status filter.
 *
 * @public
 */
export function filterClusters(
  clusters: ClusterView[],
  text: string,
  status: StatusFilter,
): ClusterView[] {
  const words = text.toLowerCase().split(/\s+/).filter(Boolean);
  const byStatus = STATUS_TESTS[status];
  return clusters.filter(c => {
    if (!byStatus(c)) return false;
    if (!words.length) return true;
    const searched = searchText(c);
    return words.every(w => searched.includes(w));
  });
}

import type { SortKey } from '../../lib/sortClusters';

export type ColumnId =
  | 'name'
  | 'type'
  | 'placement'
  | 'connected'
  | 'registered'
  | 'kubernetesVersion'
  | 'nodes'
  | 'argoServer'
  | 'gitopsPath'
  | 'zones'
  | 'orgs';

export interface Column {
  id: ColumnId;
  label: string;
  /** Set when the column sorts. */
  sortKey?: SortKey;
  minWidth?: number;
  align?: 'right';
  /**
   * The narrowest window (px) that shows the column; below it the column collapses and its facts
   * are in the cluster's panel. Unset: always shown.
   */
  minViewport?: number;
}

/**
 * Window widths from which lower-priority columns show. Measured with Backstage's sidebar pinned
 * open (224 px): at 1,280 px the table has 1,008 px, which fits name, type, both conditions, the
 * Argo CD server and the gitops path (below 1,280 px, name, type and the conditions: ~540 px);
 * Kubernetes and Nodes need ~240 px more, the placement ~215 more, the zones placed and the orgs
 * allowed ~240 more.
 */
export const VIEWPORT_STEPS = [1280, 1440, 1680, 1920] as const;

/** The table's columns, in order. */
export const COLUMNS: Column[] = [
  { id: 'name', label: 'Name', sortKey: 'name', minWidth: 120 },
  { id: 'type', label: 'Type', sortKey: 'type' },
  {
    id: 'placement',
    label: 'Flavor / provider / region',
    sortKey: 'placement',
    minViewport: 1680,
  },
  { id: 'connected', label: 'Connected', sortKey: 'connected', minWidth: 120 },
  {
    id: 'registered',
    label: 'Registered',
    sortKey: 'registered',
    minWidth: 120,
  },
  {
    id: 'kubernetesVersion',
    label: 'Kubernetes',
    sortKey: 'kubernetesVersion',
    minViewport: 1440,
  },
  {
    id: 'nodes',
    label: 'Nodes',
    sortKey: 'nodes',
    align: 'right',
    minViewport: 1440,
  },
  {
    id: 'argoServer',
    label: 'Argo CD server',
    sortKey: 'argoServer',
    minWidth: 150,
    minViewport: 1280,
  },
  {
    id: 'gitopsPath',
    label: 'Gitops path',
    sortKey: 'gitopsPath',
    minWidth: 180,
    minViewport: 1280,
  },
  { id: 'zones', label: 'Zones placed', minViewport: 1920 },
  { id: 'orgs', label: 'Orgs allowed', minViewport: 1920 },
];

/** The columns a window of the given step matches show (`wide[i]`: the window is >= VIEWPORT_STEPS[i]). */
export function visibleColumns(wide: readonly boolean[]): Column[] {
  return COLUMNS.filter(
    c =>
      c.minViewport === undefined ||
      VIEWPORT_STEPS.some((step, i) => wide[i] && c.minViewport! <= step),
  );
}

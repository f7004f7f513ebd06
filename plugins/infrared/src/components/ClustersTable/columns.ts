import type { SortKey } from '../../lib/sortClusters';

export interface Column {
  id: string;
  label: string;
  /** Set when the column sorts. */
  sortKey?: SortKey;
  minWidth?: number;
  align?: 'right';
}

/** The table's columns, in order. Zones and Orgs allowed stay empty until the allowlist lands. */
export const COLUMNS: Column[] = [
  { id: 'name', label: 'Name', sortKey: 'name', minWidth: 160 },
  { id: 'type', label: 'Type', sortKey: 'type' },
  {
    id: 'placement',
    label: 'Flavor / provider / region',
    sortKey: 'placement',
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
  },
  { id: 'nodes', label: 'Nodes', sortKey: 'nodes', align: 'right' },
  {
    id: 'argoServer',
    label: 'Argo CD server',
    sortKey: 'argoServer',
    minWidth: 190,
  },
  {
    id: 'gitopsPath',
    label: 'Gitops path',
    sortKey: 'gitopsPath',
    minWidth: 200,
  },
  { id: 'zones', label: 'Zones placed' },
  { id: 'orgs', label: 'Orgs allowed' },
];

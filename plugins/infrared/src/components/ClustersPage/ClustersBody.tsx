import { useCallback } from 'react';
import Alert from '@material-ui/lab/Alert';
import type { OrganizationView } from '@infrared-clusters/plugin-infrared-common';
import type { ClusterListState } from '../../hooks/useClusterList';
import type { ClustersQueryState } from '../../hooks/useClustersQuery';
import type { ClusterPlacement } from '../../lib/clusterPlacement';
import type { SortKey } from '../../lib/sortClusters';
import { isFiltered } from '../../lib/clustersQuery';
import { ClustersTable } from '../ClustersTable';
import { ClustersToolbar } from '../ClustersToolbar';
import { Loading, LoadError, NoClusters, NoMatches } from '../ClustersStates';

export interface ClustersBodyProps {
  list: ClusterListState;
  search: ClustersQueryState;
  orgs?: OrganizationView[];
  canRegister: boolean;
  onOpen: (name: string) => void;
  placement?: ReadonlyMap<string, ClusterPlacement>;
}

/** The list's part of the page: its states, or the toolbar and the table of the query. */
export const ClustersBody = ({
  list,
  search,
  orgs,
  canRegister,
  onOpen,
  placement,
}: ClustersBodyProps) => {
  const { query, update } = search;
  const onSort = useCallback(
    (key: SortKey) =>
      update(
        key === query.sort
          ? { order: query.order === 'asc' ? 'desc' : 'asc' }
          : { sort: key, order: 'asc' },
      ),
    [update, query.sort, query.order],
  );
  const clusters = list.clusters;
  if (!clusters && list.error)
    return <LoadError error={list.error} onRetry={list.refresh} />;
  if (!clusters) return <Loading />;
  if (list.overall === 0 && !isFiltered(query))
    return <NoClusters canRegister={canRegister} />;
  return (
    <>
      <ClustersToolbar
        text={search.text}
        onText={search.setText}
        status={query.status}
        onStatus={status => update({ status })}
        org={query.org}
        orgs={(orgs ?? []).map(o => o.name)}
        onOrg={org => update({ org })}
        shown={list.total}
        total={list.overall}
        inProgress={list.inProgress}
        pollIntervalMs={list.pollDelayMs}
        onRefresh={list.refresh}
      />
      {list.error && (
        <Alert severity="warning" style={{ marginBottom: 16 }}>
          Refreshing failed: {list.error.message}. The table shows the last list
          that loaded.
        </Alert>
      )}
      {clusters.length ? (
        <ClustersTable
          clusters={clusters}
          total={list.total}
          hasMore={list.hasMore}
          loadingMore={list.loadingMore}
          onLoadMore={list.loadMore}
          sort={query.sort}
          order={query.order}
          onSort={onSort}
          queryKey={JSON.stringify(query)}
          onOpen={onOpen}
          placement={placement}
        />
      ) : (
        <NoMatches total={list.overall} onClear={search.clear} />
      )}
    </>
  );
};

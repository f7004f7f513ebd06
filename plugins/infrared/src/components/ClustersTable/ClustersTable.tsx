import { memo, useMemo } from 'react';
import Table from '@material-ui/core/Table';
import TableBody from '@material-ui/core/TableBody';
import TableCell from '@material-ui/core/TableCell';
import TableContainer from '@material-ui/core/TableContainer';
import TableRow from '@material-ui/core/TableRow';
import useMediaQuery from '@material-ui/core/useMediaQuery';
import type { ClusterView } from '@infrared-clusters/plugin-infrared-common';
import { placementOf, type ClusterPlacement } from '../../lib/clusterPlacement';
import type { SortDirection, SortKey } from '../../lib/sortClusters';
import { ClusterRow } from './ClusterRow';
import { ClustersTableFooter } from './ClustersTableFooter';
import { ClustersTableHead } from './ClustersTableHead';
import { VIEWPORT_STEPS, visibleColumns } from './columns';
import { useVirtualRows } from './useVirtualRows';

// Read on the first render (no second render on a cold load); without matchMedia (jsdom), wide.
const MEDIA = { noSsr: true, defaultMatches: true };

/** The table scrolls inside the page: its rows are virtualized in this box. */
const SCROLL_BOX = { maxHeight: 'max(360px, calc(100vh - 330px))' };

/** The columns this window shows: lower-priority ones collapse into the panel on narrower windows. */
function useVisibleColumns() {
  const [a, b, c, d] = VIEWPORT_STEPS;
  const wideA = useMediaQuery(`(min-width:${a}px)`, MEDIA);
  const wideB = useMediaQuery(`(min-width:${b}px)`, MEDIA);
  const wideC = useMediaQuery(`(min-width:${c}px)`, MEDIA);
  const wideD = useMediaQuery(`(min-width:${d}px)`, MEDIA);
  return useMemo(
    () => visibleColumns([wideA, wideB, wideC, wideD]),
    [wideA, wideB, wideC, wideD],
  );
}

/** A row standing for the space of rows not rendered. */
const Spacer = ({ height, columns }: { height: number; columns: number }) =>
  height > 0 ? (
    <TableRow aria-hidden>
      <TableCell colSpan={columns} style={{ height, padding: 0, border: 0 }} />
    </TableRow>
  ) : null;

export interface ClustersTableProps {
  /** The clusters loaded so far, in the backend's order for the query. */
  clusters: ClusterView[];
  /** How many match the query in all. */
  total: number;
  hasMore: boolean;
  loadingMore: boolean;
  onLoadMore: () => void;
  sort: SortKey;
  order: SortDirection;
  onSort: (key: SortKey) => void;
  /** Changes with the query: the table goes back to its top. */
  queryKey: string;
  onOpen: (name: string) => void;
  /** Zones and allowed orgs by cluster name; undefined while they load. */
  placement?: ReadonlyMap<string, ClusterPlacement>;
}

/**
 * The clusters of the query in the backend's order, sorted by a click on a column header (the
 * backend sorts). Rows are virtualized: only those in view and a few around them are in the page,
 * however many are loaded, and scrolling near the end loads the next page. Memoized: the page
 * re-renders when a permission check answers or the panel opens, and the rows need not.
 */
export const ClustersTable = memo(function ClustersTablePage(
  props: ClustersTableProps,
) {
  const { clusters, total, hasMore, loadingMore, onLoadMore } = props;
  const { placement, onOpen } = props;
  const columns = useVisibleColumns();
  const virtual = useVirtualRows({
    count: clusters.length,
    hasMore,
    loadingMore,
    onLoadMore,
    resetKey: props.queryKey,
  });
  // One "now" per answer, so rows stay memoized while the user scrolls.
  const now = useMemo(() => clusters && Date.now(), [clusters]);

  return (
    <>
      <TableContainer ref={virtual.scrollRef} style={SCROLL_BOX}>
        <Table size="small" aria-label="Clusters" stickyHeader>
          <ClustersTableHead
            columns={columns}
            sort={props.sort}
            order={props.order}
            onSort={props.onSort}
          />
          <TableBody>
            <Spacer height={virtual.paddingTop} columns={columns.length} />
            {virtual.rows.map(row => {
              const cluster = clusters[row.index];
              return (
                <ClusterRow
                  key={cluster.name}
                  ref={virtual.measure}
                  index={row.index}
                  cluster={cluster}
                  columns={columns}
                  now={now}
                  onOpen={onOpen}
                  placement={placement && placementOf(placement, cluster.name)}
                />
              );
            })}
            <Spacer height={virtual.paddingBottom} columns={columns.length} />
          </TableBody>
        </Table>
      </TableContainer>
      <ClustersTableFooter
        columns={columns}
        loaded={clusters.length}
        total={total}
        hasMore={hasMore}
        loadingMore={loadingMore}
        onLoadMore={onLoadMore}
      />
    </>
  );
});

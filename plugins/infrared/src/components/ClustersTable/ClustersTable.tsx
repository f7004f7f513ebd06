import { memo, useEffect, useMemo, useState } from 'react';
import Table from '@material-ui/core/Table';
import TableBody from '@material-ui/core/TableBody';
import TableCell from '@material-ui/core/TableCell';
import TableContainer from '@material-ui/core/TableContainer';
import TableHead from '@material-ui/core/TableHead';
import TablePagination from '@material-ui/core/TablePagination';
import TableRow from '@material-ui/core/TableRow';
import TableSortLabel from '@material-ui/core/TableSortLabel';
import Typography from '@material-ui/core/Typography';
import useMediaQuery from '@material-ui/core/useMediaQuery';
import type { ClusterView } from '@infrared-clusters/plugin-infrared-common';
import { placementOf, type ClusterPlacement } from '../../lib/clusterPlacement';
import { SortDirection, SortKey, sortClusters } from '../../lib/sortClusters';
import { ClusterRow } from './ClusterRow';
import { COLUMNS, Column, VIEWPORT_STEPS, visibleColumns } from './columns';

export const ROWS_PER_PAGE_OPTIONS = [25, 50, 100];

// Read on the first render (no second render on a cold load); without matchMedia (jsdom), wide.
const MEDIA = { noSsr: true, defaultMatches: true };

const COLUMN_COUNT = COLUMNS.length;

function hiddenNote(shown: Column[]) {
  const labels = COLUMNS.filter(c => !shown.includes(c)).map(c => c.label);
  return `Not shown at this window width: ${labels.join(
    ', ',
  )}. Each cluster's panel has them: open a cluster by its name.`;
}

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

export interface ClustersTableProps {
  /** The clusters to show (already filtered). */
  clusters: ClusterView[];
  /** Changes when the filter changes: back to the first page. */
  filterKey: string;
  onOpen: (name: string) => void;
  /** Zones and allowed orgs by cluster name; undefined while they load. */
  placement?: ReadonlyMap<string, ClusterPlacement>;
}

/**
 * The clusters, sortable by column and paginated, so 1,000 clusters render one page at a time.
 * Memoized: the page re-renders when a permission check answers or the panel opens, and the rows
 * need not (on a cold load that second render cost as much as the first).
 */
export const ClustersTable = memo(function ClustersTablePage({
  clusters,
  filterKey,
  onOpen,
  placement,
}: ClustersTableProps) {
  const [sortKey, setSortKey] = useState<SortKey>('name');
  const [direction, setDirection] = useState<SortDirection>('asc');
  const [page, setPage] = useState(0);
  const [rowsPerPage, setRowsPerPage] = useState(ROWS_PER_PAGE_OPTIONS[0]);
  const columns = useVisibleColumns();
  const hidden = COLUMN_COUNT - columns.length;

  useEffect(() => setPage(0), [filterKey]);

  const sorted = useMemo(
    () => sortClusters(clusters, sortKey, direction),
    [clusters, sortKey, direction],
  );
  const lastPage = Math.max(0, Math.ceil(sorted.length / rowsPerPage) - 1);
  const shownPage = Math.min(page, lastPage);
  const rows = sorted.slice(
    shownPage * rowsPerPage,
    (shownPage + 1) * rowsPerPage,
  );
  const now = Date.now();

  const sortBy = (key: SortKey) => {
    if (key === sortKey) setDirection(d => (d === 'asc' ? 'desc' : 'asc'));
    else {
      setSortKey(key);
      setDirection('asc');
    }
  };

  return (
    <>
      <TableContainer>
        <Table size="small" aria-label="Clusters">
          <TableHead>
            <TableRow>
              {columns.map(column => (
                <TableCell
                  key={column.id}
                  align={column.align}
                  style={{ minWidth: column.minWidth, whiteSpace: 'nowrap' }}
                  sortDirection={column.sortKey === sortKey ? direction : false}
                >
                  {column.sortKey ? (
                    <TableSortLabel
                      active={column.sortKey === sortKey}
                      direction={column.sortKey === sortKey ? direction : 'asc'}
                      onClick={() => sortBy(column.sortKey!)}
                    >
                      {column.label}
                    </TableSortLabel>
                  ) : (
                    column.label
                  )}
                </TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map(cluster => (
              <ClusterRow
                key={cluster.name}
                cluster={cluster}
                columns={columns}
                now={now}
                onOpen={onOpen}
                placement={placement && placementOf(placement, cluster.name)}
              />
            ))}
          </TableBody>
        </Table>
      </TableContainer>
      {hidden > 0 && (
        <Typography
          variant="caption"
          color="textSecondary"
          component="p"
          data-testid="hidden-columns"
        >
          {hiddenNote(columns)}
        </Typography>
      )}
      <TablePagination
        component="div"
        count={sorted.length}
        page={shownPage}
        rowsPerPage={rowsPerPage}
        rowsPerPageOptions={ROWS_PER_PAGE_OPTIONS}
        onPageChange={(_e, p) => setPage(p)}
        onRowsPerPageChange={e => {
          setRowsPerPage(Number(e.target.value));
          setPage(0);
        }}
      />
    </>
  );
});

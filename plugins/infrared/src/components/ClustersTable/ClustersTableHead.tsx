import TableCell from '@material-ui/core/TableCell';
import TableHead from '@material-ui/core/TableHead';
import TableRow from '@material-ui/core/TableRow';
import TableSortLabel from '@material-ui/core/TableSortLabel';
import type { SortDirection, SortKey } from '../../lib/sortClusters';
import type { Column } from './columns';

export interface ClustersTableHeadProps {
  columns: Column[];
  sort: SortKey;
  order: SortDirection;
  onSort: (key: SortKey) => void;
}

/** The column headers; a sortable column's header asks the backend for that sort. */
export const ClustersTableHead = ({
  columns,
  sort,
  order,
  onSort,
}: ClustersTableHeadProps) => (
  <TableHead>
    <TableRow>
      {columns.map(column => (
        <TableCell
          key={column.id}
          align={column.align}
          style={{ minWidth: column.minWidth, whiteSpace: 'nowrap' }}
          sortDirection={column.sortKey === sort ? order : false}
        >
          {column.sortKey ? (
            <TableSortLabel
              active={column.sortKey === sort}
              direction={column.sortKey === sort ? order : 'asc'}
              onClick={() => onSort(column.sortKey!)}
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
);

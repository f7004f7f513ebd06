import { forwardRef, memo, type CSSProperties, type ReactNode } from 'react';
import TableCell from '@material-ui/core/TableCell';
import TableRow from '@material-ui/core/TableRow';
import Typography from '@material-ui/core/Typography';
import type { ClusterView } from '@infrared-clusters/plugin-infrared-common';
import { zoneLabel, type ClusterPlacement } from '../../lib/clusterPlacement';
import { BreakableText } from '../BreakableText';
import { ClusterNameCell } from '../ClusterNameCell';
import { ConditionChip } from '../ConditionChip';
import { GitopsPathCell } from '../GitopsPathCell';
import type { Column, ColumnId } from './columns';

export interface ClusterRowProps {
  cluster: ClusterView;
  /** The columns shown at this window width. */
  columns: Column[];
  now: number;
  onOpen: (name: string) => void;
  /** The cluster's zones and allowed orgs; undefined while they load. */
  placement?: ClusterPlacement;
  /** The row's position in the list (the virtualizer measures rows by it). */
  index?: number;
}

// Static styles (not Box, not a style sheet per row): short tokens are never broken inside a word
// (the theme lets table cells break anywhere).
const TOKEN: CSSProperties = { whiteSpace: 'nowrap' };
const LONG: CSSProperties = { wordBreak: 'normal', overflowWrap: 'break-word' };
const ANYWHERE: CSSProperties = { overflowWrap: 'anywhere' };
const SHORT_SERVER = 32;

const dash = (value: string | number | undefined) =>
  value === undefined || value === '' ? '—' : value;

/**
 * An address as short as `https://203.0.113.10:6443` stays on one line; a longer one (an EKS
 * endpoint: a 32-character ID, then the region's domain) wraps at its dots, and inside the ID
 * only when the ID alone is wider than the column.
 */
function serverText(server: string | undefined): ReactNode {
  if (!server) return '—';
  if (server.length <= SHORT_SERVER) return <span style={TOKEN}>{server}</span>;
  return (
    <span style={ANYWHERE}>
      <BreakableText text={server} after="/." />
    </span>
  );
}

/** At most this many zones are listed in a cell; the panel lists them all. */
const ZONES_IN_CELL = 3;

function zonesCell(placement: ClusterPlacement | undefined): ReactNode {
  if (!placement) return '…';
  const { zones } = placement;
  if (!zones.length) return '—';
  const more = zones.length - ZONES_IN_CELL;
  return (
    <Typography variant="body2" component="span" style={LONG}>
      {zones.slice(0, ZONES_IN_CELL).map(z => (
        <span
          key={`${z.product.namespace}/${z.product.name}/${z.zone}`}
          style={{ display: 'block' }}
        >
          {zoneLabel(z)}
        </span>
      ))}
      {more > 0 && <span style={{ display: 'block' }}>+{more} more</span>}
    </Typography>
  );
}

function cell(
  id: ColumnId,
  cluster: ClusterView,
  now: number,
  onOpen: (name: string) => void,
  placement: ClusterPlacement | undefined,
): ReactNode {
  switch (id) {
    case 'name':
      return <ClusterNameCell cluster={cluster} onOpen={onOpen} />;
    case 'type':
      return cluster.type;
    case 'placement':
      return [cluster.flavor, cluster.provider, cluster.region]
        .map(v => v ?? '—')
        .join(' / ');
    case 'connected':
      return <ConditionChip cluster={cluster} type="Connected" now={now} />;
    case 'registered':
      return <ConditionChip cluster={cluster} type="Registered" now={now} />;
    case 'kubernetesVersion':
      return dash(cluster.kubernetesVersion);
    case 'nodes':
      return dash(cluster.nodes);
    case 'argoServer':
      return (
        <Typography variant="body2" style={LONG}>
          {serverText(cluster.argoServer)}
        </Typography>
      );
    case 'gitopsPath':
      return <GitopsPathCell cluster={cluster} twoLines />;
    case 'zones':
      return zonesCell(placement);
    case 'orgs':
      if (!placement) return '…';
      return placement.orgs.length ? placement.orgs.join(', ') : '—';
    default:
      return '—';
  }
}

const STYLE: Partial<Record<ColumnId, CSSProperties>> = {
  type: TOKEN,
  placement: TOKEN,
  kubernetesVersion: TOKEN,
  nodes: TOKEN,
  argoServer: LONG,
  gitopsPath: LONG,
  orgs: LONG,
};

/**
 * One cluster in the table: one cell per shown column. Memoized (scrolling renders the table, and
 * a row whose cluster did not change need not); the ref lets the virtualizer measure its height.
 */
export const ClusterRow = memo(
  forwardRef<HTMLTableRowElement, ClusterRowProps>(function ClusterRowView(
    { cluster, columns, now, onOpen, placement, index },
    ref,
  ) {
    return (
      <TableRow
        hover
        ref={ref}
        data-index={index}
        data-testid={`cluster-row-${cluster.name}`}
      >
        {columns.map(column => (
          <TableCell
            key={column.id}
            align={column.align}
            style={STYLE[column.id]}
          >
            {cell(column.id, cluster, now, onOpen, placement)}
          </TableCell>
        ))}
      </TableRow>
    );
  }),
);

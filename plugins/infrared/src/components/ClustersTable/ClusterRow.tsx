import TableCell from '@material-ui/core/TableCell';
import TableRow from '@material-ui/core/TableRow';
import Typography from '@material-ui/core/Typography';
import type { ClusterView } from '@internal/plugin-infrared-common';
import { ClusterNameCell } from '../ClusterNameCell';
import { ConditionChip } from '../ConditionChip';
import { GitopsPathCell } from '../GitopsPathCell';

export interface ClusterRowProps {
  cluster: ClusterView;
  now: number;
  onOpen: (name: string) => void;
}

const dash = (value: string | number | undefined) =>
  value === undefined || value === '' ? '—' : value;

/** One cluster in the table. */
export const ClusterRow = ({ cluster, now, onOpen }: ClusterRowProps) => {
  const placement = [cluster.flavor, cluster.provider, cluster.region]
    .map(v => v ?? '—')
    .join(' / ');
  return (
    <TableRow hover data-testid={`cluster-row-${cluster.name}`}>
      <TableCell>
        <ClusterNameCell cluster={cluster} onOpen={onOpen} />
      </TableCell>
      <TableCell>{cluster.type}</TableCell>
      <TableCell style={{ whiteSpace: 'nowrap' }}>{placement}</TableCell>
      <TableCell>
        <ConditionChip cluster={cluster} type="Connected" now={now} />
      </TableCell>
      <TableCell>
        <ConditionChip cluster={cluster} type="Registered" now={now} />
      </TableCell>
      <TableCell>{dash(cluster.kubernetesVersion)}</TableCell>
      <TableCell align="right">{dash(cluster.nodes)}</TableCell>
      <TableCell>
        <Typography variant="body2" style={{ overflowWrap: 'anywhere' }}>
          {dash(cluster.argoServer)}
        </Typography>
      </TableCell>
      <TableCell>
        <GitopsPathCell cluster={cluster} />
      </TableCell>
      <TableCell>—</TableCell>
      <TableCell>—</TableCell>
    </TableRow>
  );
};

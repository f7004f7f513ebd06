import Table from '@material-ui/core/Table';
import TableBody from '@material-ui/core/TableBody';
import TableCell from '@material-ui/core/TableCell';
import TableHead from '@material-ui/core/TableHead';
import TableRow from '@material-ui/core/TableRow';
import Typography from '@material-ui/core/Typography';
import type { ClusterCondition } from '@internal/plugin-infrared-common';
import { relativeTime } from '../../lib/relativeTime';

const HEADERS = [
  'Type',
  'Status',
  'Reason',
  'Message',
  'Last transition',
  'Observed generation',
];

/** Every condition the status holds, with all its fields. */
export const ConditionsTable = ({
  conditions,
}: {
  conditions: ClusterCondition[];
}) => {
  if (!conditions.length) {
    return (
      <Typography variant="body2" color="textSecondary">
        No conditions yet: the reconciler writes Connected, then Registered,
        within its next pass.
      </Typography>
    );
  }
  return (
    <Table size="small" aria-label="Conditions">
      <TableHead>
        <TableRow>
          {HEADERS.map(h => (
            <TableCell key={h}>{h}</TableCell>
          ))}
        </TableRow>
      </TableHead>
      <TableBody>
        {conditions.map(c => (
          <TableRow key={c.type}>
            <TableCell style={{ whiteSpace: 'nowrap' }}>{c.type}</TableCell>
            <TableCell style={{ whiteSpace: 'nowrap' }}>{c.status}</TableCell>
            <TableCell style={{ whiteSpace: 'nowrap' }}>{c.reason}</TableCell>
            <TableCell style={{ whiteSpace: 'pre-wrap' }}>
              {c.message}
            </TableCell>
            <TableCell title={c.lastTransitionTime}>
              {c.lastTransitionTime}
              <Typography
                variant="caption"
                display="block"
                color="textSecondary"
              >
                {relativeTime(c.lastTransitionTime)}
              </Typography>
            </TableCell>
            <TableCell align="right">{c.observedGeneration ?? '—'}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
};

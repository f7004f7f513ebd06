import type { CSSProperties } from 'react';
import Table from '@material-ui/core/Table';
import TableBody from '@material-ui/core/TableBody';
import TableCell from '@material-ui/core/TableCell';
import TableHead from '@material-ui/core/TableHead';
import TableRow from '@material-ui/core/TableRow';
import Typography from '@material-ui/core/Typography';
import type { ClusterCondition } from '@infrared-clusters/plugin-infrared-common';
import { RelativeTime } from '../RelativeTime';

// The theme lets table cells break words anywhere; these keep short tokens whole.
const TOKEN: CSSProperties = { whiteSpace: 'nowrap' };
const HEADER: CSSProperties = { wordBreak: 'normal' };
const NO_BORDER: CSSProperties = { borderBottom: 'none', ...TOKEN };
// One condition is two rows: no zebra stripe between its facts and its message.
const PLAIN: CSSProperties = { backgroundColor: 'transparent' };
const MESSAGE: CSSProperties = {
  whiteSpace: 'pre-wrap',
  wordBreak: 'normal',
  overflowWrap: 'anywhere',
  paddingTop: 0,
};

const HEADERS: Array<[string, 'right' | undefined]> = [
  ['Type', undefined],
  ['Status', undefined],
  ['Reason', undefined],
  ['Last transition', undefined],
  ['Observed generation', 'right'],
];

/**
 * Every condition the status holds, with all its fields: one line of short facts (never wrapped
 * inside a word; the transition as a relative time with the exact time on hover) and the message
 * below it across the whole width, so the table fits the panel.
 */
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
          {HEADERS.map(([h, align]) => (
            <TableCell key={h} align={align} style={HEADER}>
              {h}
            </TableCell>
          ))}
        </TableRow>
      </TableHead>
      {conditions.map(c => (
        <TableBody key={c.type} data-testid={`condition-row-${c.type}`}>
          <TableRow style={PLAIN}>
            <TableCell style={NO_BORDER}>{c.type}</TableCell>
            <TableCell style={NO_BORDER}>{c.status}</TableCell>
            <TableCell style={NO_BORDER}>{c.reason}</TableCell>
            <TableCell style={NO_BORDER}>
              <RelativeTime iso={c.lastTransitionTime} />
            </TableCell>
            <TableCell style={NO_BORDER} align="right">
              {c.observedGeneration ?? '—'}
            </TableCell>
          </TableRow>
          <TableRow style={PLAIN}>
            <TableCell colSpan={HEADERS.length} style={MESSAGE}>
              {c.message}
            </TableCell>
          </TableRow>
        </TableBody>
      ))}
    </Table>
  );
};

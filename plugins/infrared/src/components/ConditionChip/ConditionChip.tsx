import Chip from '@material-ui/core/Chip';
import Tooltip from '@material-ui/core/Tooltip';
import Typography from '@material-ui/core/Typography';
import { makeStyles } from '@material-ui/core/styles';
import {
  ClusterView,
  findCondition,
} from '@infrared-clusters/plugin-infrared-common';
import { ConditionState, conditionState } from '../../lib/clusterStatus';
import { RelativeTime } from '../RelativeTime';

const useStyles = makeStyles(theme => ({
  True: {
    backgroundColor: theme.palette.success.main,
    color: theme.palette.success.contrastText,
  },
  False: {
    backgroundColor: theme.palette.error.main,
    color: theme.palette.error.contrastText,
  },
  Unknown: {
    backgroundColor: theme.palette.warning.main,
    color: theme.palette.warning.contrastText,
  },
  Pending: {},
  chip: { height: 20, fontWeight: 600 },
  // Reasons are CamelCase tokens and times short phrases: never broken inside a word.
  caption: { display: 'block', whiteSpace: 'nowrap' },
}));

export interface ConditionChipProps {
  cluster: Pick<ClusterView, 'conditions'>;
  /** The condition type, `Connected` or `Registered`. */
  type: string;
  now?: number;
}

const PENDING_MESSAGE =
  'The reconciler has not written this condition yet: it does within its next pass.';

/** A condition's status as a coloured chip, with its reason and since when; the message on hover. */
export const ConditionChip = ({ cluster, type, now }: ConditionChipProps) => {
  const classes = useStyles();
  const condition = findCondition(cluster, type);
  const state: ConditionState = conditionState(cluster, type);
  const label = `${type}: ${state}${
    condition?.reason ? ` (${condition.reason})` : ''
  }`;
  return (
    <Tooltip title={condition?.message || PENDING_MESSAGE} placement="top">
      <div data-testid={`condition-${type}`}>
        <Chip
          size="small"
          label={state}
          aria-label={label}
          className={`${classes.chip} ${classes[state]}`}
        />
        {condition?.reason && (
          <Typography variant="caption" className={classes.caption}>
            {condition.reason}
          </Typography>
        )}
        {condition?.lastTransitionTime && (
          <Typography
            variant="caption"
            color="textSecondary"
            className={classes.caption}
          >
            <RelativeTime
              iso={condition.lastTransitionTime}
              now={now}
              prefix="since "
            />
          </Typography>
        )}
      </div>
    </Tooltip>
  );
};

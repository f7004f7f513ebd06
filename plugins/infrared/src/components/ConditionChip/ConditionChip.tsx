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
  cluster: Pick<ClusterView, 'conditions'> &
    Partial<Pick<ClusterView, 'discovered'>>;
  /** The condition type, `Connected` or `Registered`. */
  type: string;
  now?: number;
}

const PENDING_MESSAGE =
  'The reconciler has not written this condition yet: it does within its next pass.';
/** A discovered child has no Cluster resource: nobody writes its conditions but the registrar's. */
const CHILD_MESSAGES: Record<string, string> = {
  Connected:
    'Infrared does not connect to a discovered child: Argo CD does. Its panel says whether Argo CD reaches it.',
  Registered:
    "The registrar has not passed in this backend since it started: the panel says what is known of the child's Argo CD Secret.",
};

/** A condition's status as a coloured chip, with its reason and since when; the message on hover. */
export const ConditionChip = ({ cluster, type, now }: ConditionChipProps) => {
  const classes = useStyles();
  const condition = findCondition(cluster, type);
  const state: ConditionState = conditionState(cluster, type);
  // a discovered child's missing condition is not pending: nobody is to write it
  const notChecked = !!cluster.discovered && !condition;
  const shown = notChecked ? 'Not checked' : state;
  const label = `${type}: ${shown}${
    condition?.reason ? ` (${condition.reason})` : ''
  }`;
  const fallback = notChecked
    ? CHILD_MESSAGES[type] ?? CHILD_MESSAGES.Registered
    : PENDING_MESSAGE;
  return (
    <Tooltip title={condition?.message || fallback} placement="top">
      <div data-testid={`condition-${type}`}>
        <Chip
          size="small"
          label={shown}
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

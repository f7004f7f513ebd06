import Box from '@material-ui/core/Box';
import CircularProgress from '@material-ui/core/CircularProgress';
import Typography from '@material-ui/core/Typography';
import CheckCircleIcon from '@material-ui/icons/CheckCircle';
import ErrorIcon from '@material-ui/icons/Error';
import HelpIcon from '@material-ui/icons/Help';
import {
  ClusterView,
  findCondition,
} from '@infrared-clusters/plugin-infrared-common';
import { conditionState } from '../../lib/clusterStatus';

export interface RegistrationStepProps {
  cluster: ClusterView;
  type: string;
  /** What the step does, for a condition not written yet. */
  waiting: string;
}

const ICONS = {
  True: <CheckCircleIcon style={{ color: '#2e7d32' }} />,
  False: <ErrorIcon color="error" />,
  Unknown: <HelpIcon color="action" />,
  Pending: <CircularProgress size={20} />,
};

/** One condition on the way to Registered: done, stuck (with its reason), or waiting. */
export const RegistrationStep = ({
  cluster,
  type,
  waiting,
}: RegistrationStepProps) => {
  const state = conditionState(cluster, type);
  const condition = findCondition(cluster, type);
  return (
    <Box
      display="flex"
      alignItems="flex-start"
      my={1}
      data-testid={`step-${type}`}
    >
      <Box mr={1}>{ICONS[state]}</Box>
      <Box>
        <Typography variant="body1">
          {type}: <strong>{state}</strong>
          {condition?.reason ? ` (${condition.reason})` : ''}
        </Typography>
        <Typography variant="body2" color="textSecondary">
          {condition?.message || waiting}
        </Typography>
      </Box>
    </Box>
  );
};

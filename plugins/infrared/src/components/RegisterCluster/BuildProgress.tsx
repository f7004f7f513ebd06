import Box from '@material-ui/core/Box';
import CircularProgress from '@material-ui/core/CircularProgress';
import Typography from '@material-ui/core/Typography';
import CheckCircleIcon from '@material-ui/icons/CheckCircle';
import ErrorIcon from '@material-ui/icons/Error';
import {
  findCondition,
  PROVISIONED_CONDITION,
  type ClusterView,
} from '@infrared-clusters/plugin-infrared-common';
import { ProvisionLog } from '../ProvisionSection/ProvisionLog';
import { summaryText } from '../ProvisionSection/ProvisionSection';

/** The Job's step in words: what runs now, or what it ended with. */
function jobStep(cluster: ClusterView) {
  const provision = cluster.provision!;
  const status = provision.status;
  const condition = findCondition(cluster, PROVISIONED_CONDITION);
  if (!status || status.action !== provision.action) {
    return {
      icon: <CircularProgress size={20} />,
      title: `${provision.action === 'plan' ? 'Plan' : 'Job'}: starting`,
      text:
        condition?.message ??
        `The provisioning pass starts the ${provision.action} Job in a few seconds…`,
    };
  }
  const running = status.phase === 'Waiting' || status.phase === 'Running';
  let icon = <CircularProgress size={20} />;
  if (status.phase === 'Succeeded')
    icon = <CheckCircleIcon style={{ color: '#2e7d32' }} />;
  if (status.phase === 'Failed') icon = <ErrorIcon color="error" />;
  return {
    icon,
    title: `${status.action === 'plan' ? 'Plan' : status.action}: ${
      running ? `${status.phase}…` : status.phase
    }`,
    text: `Job ${status.job}${status.message ? `: ${status.message}` : ''}`,
  };
}

/**
 * A new cluster built with OpenTofu (issue 23.3): the plan Job's progress, then the plan's summary
 * and resources. Planning is the normal state: Connected and Registered come only after an Apply,
 * so they are not shown as failures here.
 */
export const BuildProgress = ({ cluster }: { cluster: ClusterView }) => {
  const status = cluster.provision?.status;
  const step = jobStep(cluster);
  return (
    <Box data-testid="build-progress">
      <Box display="flex" alignItems="flex-start" my={1} data-testid="step-Job">
        <Box mr={1}>{step.icon}</Box>
        <Box>
          <Typography variant="body1">
            <strong>{step.title}</strong>
          </Typography>
          <Typography
            variant="body2"
            color={status?.phase === 'Failed' ? 'error' : 'textSecondary'}
            style={{ whiteSpace: 'pre-wrap' }}
          >
            {step.text}
          </Typography>
        </Box>
      </Box>
      {status?.summary && (
        <Box my={1} data-testid="plan-summary">
          <Typography variant="subtitle2">
            Plan: {summaryText(status.summary)}
          </Typography>
          <ul style={{ margin: 0 }}>
            {status.summary.resources.map(r => (
              <li key={r.address}>
                <code>{r.address}</code> {r.actions.join(', ')}
              </li>
            ))}
          </ul>
        </Box>
      )}
      {status && (
        <Box display="flex" flexWrap="wrap" style={{ gap: 8 }}>
          <ProvisionLog cluster={cluster.name} status={status} />
        </Box>
      )}
      <Typography variant="body2" color="textSecondary" paragraph>
        {status?.action === 'plan' && status.phase === 'Succeeded'
          ? `Nothing is built yet. Review the plan, then Apply it from the cluster's panel (Clusters, ${cluster.name}): the cluster is connected and registered once the apply has built it.`
          : 'A plan builds nothing: once it is done, Apply it from the cluster’s panel, and the cluster is connected and registered after the apply.'}
      </Typography>
    </Box>
  );
};

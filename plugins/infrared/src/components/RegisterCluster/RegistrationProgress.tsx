import Box from '@material-ui/core/Box';
import Typography from '@material-ui/core/Typography';
import Alert from '@material-ui/lab/Alert';
import type { ClusterView } from '@infrared-clusters/plugin-infrared-common';
import { useClusterProgress } from '../../hooks/useClusterProgress';
import { stuckCondition } from '../../lib/clusterStatus';
import { GitopsPathCell } from '../GitopsPathCell';
import { BuildProgress } from './BuildProgress';
import { RegistrationStep } from './RegistrationStep';

export interface RegistrationProgressProps {
  /** The cluster as POST returned it. */
  created: ClusterView;
  pollIntervalMs: number;
}

/** Follows a new cluster until Connected and Registered are True, or says where it is stuck and why. */
export const RegistrationProgress = ({
  created,
  pollIntervalMs,
}: RegistrationProgressProps) => {
  const { cluster, error, done } = useClusterProgress(created, pollIntervalMs);
  // a cluster built with OpenTofu has no connection until an apply gives it one: until then its
  // Job is the progress, and Connected False NoConnection is not a failure (issue 23.3)
  const building = !!cluster.template && cluster.connection === 'none';
  const stuck = building ? undefined : stuckCondition(cluster);
  return (
    <Box data-testid="registration-progress">
      <Typography variant="body1" paragraph>
        Cluster <strong>{cluster.name}</strong> was created.
      </Typography>
      {building ? (
        <BuildProgress cluster={cluster} />
      ) : (
        <>
          <RegistrationStep
            cluster={cluster}
            type="Connected"
            waiting="Reaching the API server and reading its version and nodes…"
          />
          <RegistrationStep
            cluster={cluster}
            type="Registered"
            waiting="Writing the Argo CD cluster Secret and the app-of-apps in the gitops repo…"
          />
        </>
      )}
      {done && (
        <Alert severity="success">
          <Typography variant="body2">
            Registered. Argo CD server:{' '}
            <strong>{cluster.argoServer ?? '—'}</strong>
          </Typography>
          <Typography variant="body2" component="div">
            Gitops path: <GitopsPathCell cluster={cluster} />
          </Typography>
        </Alert>
      )}
      {!done && stuck && (
        <Alert severity="warning">
          Stuck at {stuck.type}: {stuck.reason}. Infrared tries again on every
          pass: fix the cause, or close this and remove the cluster.
        </Alert>
      )}
      {error && (
        <Alert severity="info">
          Could not read the cluster's status ({error.message}); trying again.
        </Alert>
      )}
      {!done && (
        <Typography variant="caption" color="textSecondary" display="block">
          {building
            ? "You can close this dialog: the Job goes on, and the cluster's panel shows it."
            : 'You can close this dialog: registration goes on, and the Clusters table shows it.'}
        </Typography>
      )}
    </Box>
  );
};

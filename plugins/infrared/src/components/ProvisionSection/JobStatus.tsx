import Box from '@material-ui/core/Box';
import Typography from '@material-ui/core/Typography';
import Alert from '@material-ui/lab/Alert';
import type { ClusterView } from '@infrared-clusters/plugin-infrared-common';

/** "N to add, M to change, K to destroy", as OpenTofu says it. */
export const summaryText = (s: {
  add: number;
  change: number;
  destroy: number;
}) => `${s.add} to add, ${s.change} to change, ${s.destroy} to destroy`;

/** The last Job: its phase and message, a plan's summary and resources, and a destroy's outcome. */
export const JobStatus = ({
  cluster,
  destroyed,
}: {
  cluster: ClusterView;
  destroyed: boolean;
}) => {
  const status = cluster.provision?.status;
  return (
    <>
      {status ? (
        <Box mt={1} data-testid="provision-status">
          <Typography variant="body2">
            Job {status.job} ({status.action}, generation {status.generation}):{' '}
            <strong>{status.phase}</strong>
          </Typography>
          {status.message && (
            <Typography
              variant="body2"
              color={status.phase === 'Failed' ? 'error' : 'textSecondary'}
              style={{ whiteSpace: 'pre-wrap' }}
            >
              {status.message}
            </Typography>
          )}
        </Box>
      ) : (
        <Typography variant="body2" color="textSecondary">
          No Job yet: the next provisioning pass starts one.
        </Typography>
      )}
      {status?.summary && (
        <Box mt={1} data-testid="plan-summary">
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
      {destroyed && (
        <Alert severity="info" data-testid="destroyed" style={{ marginTop: 8 }}>
          Destroyed: what the template built for {cluster.name} is gone, and
          Argo CD no longer deploys to it. Remove the cluster, or plan or apply
          it again (a new generation).
        </Alert>
      )}
    </>
  );
};

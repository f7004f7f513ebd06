import Box from '@material-ui/core/Box';
import LinearProgress from '@material-ui/core/LinearProgress';
import Alert from '@material-ui/lab/Alert';
import type { ProvisioningRunnerView } from '@infrared-clusters/plugin-infrared-common';

/**
 * "OpenTofu is being prepared (about N min left)", with the progress: what the server says while
 * nothing can run the OpenTofu Jobs yet. A build started now waits and then runs on its own.
 */
export const RunnerNotice = ({
  runner,
}: {
  runner: ProvisioningRunnerView;
}) => (
  <Alert severity="info" role="status">
    <Box>{runner.message ?? 'OpenTofu is not ready yet'}</Box>
    {runner.percent !== undefined && (
      <Box mt={1} mb={1} width={360} maxWidth="100%">
        <LinearProgress
          variant="determinate"
          value={runner.percent}
          aria-label="OpenTofu preparation"
        />
      </Box>
    )}
    <Box>
      A build you start now waits for it, then runs on its own: no restart.
    </Box>
  </Alert>
);

import Button from '@material-ui/core/Button';
import Typography from '@material-ui/core/Typography';
import { WarningPanel } from '@backstage/core-components';
import { loadErrorAdvice } from '../../lib/loadErrorAdvice';

export interface LoadErrorProps {
  error: Error;
  onRetry: () => void;
}

/** The clusters could not be loaded: why, and what to do. */
export const LoadError = ({ error, onRetry }: LoadErrorProps) => (
  <WarningPanel
    severity="error"
    title="Could not load clusters"
    defaultExpanded
  >
    <Typography variant="body2" paragraph>
      {error.message}
    </Typography>
    <Typography variant="body2" paragraph>
      {loadErrorAdvice(error)}
    </Typography>
    <Button variant="outlined" onClick={onRetry}>
      Retry
    </Button>
  </WarningPanel>
);

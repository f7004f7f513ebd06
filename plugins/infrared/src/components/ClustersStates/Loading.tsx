import Box from '@material-ui/core/Box';
import Typography from '@material-ui/core/Typography';
import { Progress } from '@backstage/core-components';

/** The first load is under way. */
export const Loading = () => (
  <Box py={2}>
    <Progress />
    <Typography variant="body2" color="textSecondary" align="center">
      Loading clusters…
    </Typography>
  </Box>
);

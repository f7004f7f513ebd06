import Box from '@material-ui/core/Box';
import Button from '@material-ui/core/Button';
import Typography from '@material-ui/core/Typography';

export interface NoMatchesProps {
  total: number;
  onClear: () => void;
}

/** Clusters exist but none matches the filters. */
export const NoMatches = ({ total, onClear }: NoMatchesProps) => (
  <Box py={4} textAlign="center">
    <Typography variant="body1" paragraph>
      No cluster matches the filter ({total} clusters in all).
    </Typography>
    <Button variant="outlined" onClick={onClear}>
      Clear filters
    </Button>
  </Box>
);

import Box from '@material-ui/core/Box';
import Chip from '@material-ui/core/Chip';
import Link from '@material-ui/core/Link';
import Typography from '@material-ui/core/Typography';
import type { ClusterView } from '@internal/plugin-infrared-common';

export interface ClusterNameCellProps {
  cluster: ClusterView;
  onOpen: (name: string) => void;
}

/** The name, which opens the cluster panel, and the discovered marker with its source namespace. */
export const ClusterNameCell = ({ cluster, onOpen }: ClusterNameCellProps) => (
  <Box>
    <Link
      component="button"
      variant="body2"
      onClick={() => onOpen(cluster.name)}
      aria-label={`Open cluster ${cluster.name}`}
    >
      <strong>{cluster.name}</strong>
    </Link>
    {cluster.discovered && (
      <Box display="flex" alignItems="center" flexWrap="wrap" mt={0.5}>
        <Chip size="small" variant="outlined" label="discovered" />
        <Typography variant="caption" color="textSecondary">
          &nbsp;from namespace {cluster.discovered.sourceNamespace}
        </Typography>
      </Box>
    )}
  </Box>
);

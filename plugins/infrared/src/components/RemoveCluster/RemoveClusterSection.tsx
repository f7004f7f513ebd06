import { useState } from 'react';
import Box from '@material-ui/core/Box';
import Typography from '@material-ui/core/Typography';
import DeleteIcon from '@material-ui/icons/Delete';
import type {
  ClusterRemovalView,
  ClusterView,
} from '@infrared-clusters/plugin-infrared-common';
import type { Allowance } from '../../hooks/useClusterPermissions';
import { PermissionButton } from '../PermissionButton';
import { RemoveClusterDialog } from './RemoveClusterDialog';

export interface RemoveClusterSectionProps {
  cluster: ClusterView;
  allowance: Allowance;
  onRemoved: (name: string, removal: ClusterRemovalView) => void;
}

/** The Remove action of the cluster panel, or why there is none. */
export const RemoveClusterSection = ({
  cluster,
  allowance,
  onRemoved,
}: RemoveClusterSectionProps) => {
  const [confirming, setConfirming] = useState(false);
  if (cluster.type === 'management') {
    return (
      <Typography variant="body2" color="textSecondary">
        The management cluster can't be removed: Infrared and Argo CD run on it.
      </Typography>
    );
  }
  if (cluster.discovered) {
    return (
      <Typography variant="body2" color="textSecondary">
        Discovered by the registrar in namespace{' '}
        {cluster.discovered.sourceNamespace}: there is no Cluster to remove
        here; it goes when its source does.
      </Typography>
    );
  }
  return (
    <Box>
      <PermissionButton
        allowance={allowance}
        variant="outlined"
        color="secondary"
        startIcon={<DeleteIcon />}
        onClick={() => setConfirming(true)}
      >
        Remove
      </PermissionButton>
      {confirming && (
        <RemoveClusterDialog
          cluster={cluster}
          onCancel={() => setConfirming(false)}
          onRemoved={(name, removal) => {
            setConfirming(false);
            onRemoved(name, removal);
          }}
        />
      )}
    </Box>
  );
};

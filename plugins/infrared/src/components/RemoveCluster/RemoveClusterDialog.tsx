import { useState } from 'react';
import Button from '@material-ui/core/Button';
import CircularProgress from '@material-ui/core/CircularProgress';
import Dialog from '@material-ui/core/Dialog';
import DialogActions from '@material-ui/core/DialogActions';
import DialogContent from '@material-ui/core/DialogContent';
import DialogTitle from '@material-ui/core/DialogTitle';
import Alert from '@material-ui/lab/Alert';
import { useApi } from '@backstage/frontend-plugin-api';
import {
  buildInProgressFromStatus,
  buildInProgressMessage,
  ClusterRemovalView,
  ClusterView,
} from '@infrared-clusters/plugin-infrared-common';
import { infraredApiRef } from '../../api';
import { WhatGoesAndStays } from './WhatGoesAndStays';
import { WhatStops } from './WhatStops';

export interface RemoveClusterDialogProps {
  cluster: ClusterView;
  onCancel: () => void;
  /** Called with the DELETE answer: the zones that stop and the allowlists the name left. */
  onRemoved: (name: string, removal: ClusterRemovalView) => void;
}

/** Confirms a removal, saying what goes and what stays, then sends DELETE. */
export const RemoveClusterDialog = ({
  cluster,
  onCancel,
  onRemoved,
}: RemoveClusterDialogProps) => {
  const api = useApi(infraredApiRef);
  const [removing, setRemoving] = useState(false);
  const [error, setError] = useState<Error>();
  const { name } = cluster;
  // the API refuses the removal (409) with the same words while this is so
  const build = buildInProgressFromStatus(cluster.provision?.status);

  const confirm = async () => {
    setRemoving(true);
    setError(undefined);
    try {
      onRemoved(name, await api.removeCluster(name));
    } catch (e) {
      setError(e as Error);
      setRemoving(false);
    }
  };

  return (
    <Dialog
      open
      onClose={removing ? undefined : onCancel}
      aria-labelledby="remove-cluster-title"
    >
      <DialogTitle id="remove-cluster-title">
        Remove cluster {name}?
      </DialogTitle>
      <DialogContent>
        <WhatStops name={name} />
        <WhatGoesAndStays cluster={cluster} />
        {build && (
          <Alert severity="warning" data-testid="build-in-progress">
            {buildInProgressMessage(name, build)}
          </Alert>
        )}
        {error && <Alert severity="error">{error.message}</Alert>}
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel} disabled={removing}>
          Cancel
        </Button>
        <Button
          variant="contained"
          color="secondary"
          onClick={confirm}
          disabled={removing || !!build}
          startIcon={removing ? <CircularProgress size={16} /> : undefined}
        >
          Remove cluster
        </Button>
      </DialogActions>
    </Dialog>
  );
};

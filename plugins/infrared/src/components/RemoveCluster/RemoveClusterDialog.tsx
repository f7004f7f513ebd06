import { useState } from 'react';
import Button from '@material-ui/core/Button';
import CircularProgress from '@material-ui/core/CircularProgress';
import Dialog from '@material-ui/core/Dialog';
import DialogActions from '@material-ui/core/DialogActions';
import DialogContent from '@material-ui/core/DialogContent';
import DialogTitle from '@material-ui/core/DialogTitle';
import Typography from '@material-ui/core/Typography';
import Alert from '@material-ui/lab/Alert';
import { useApi } from '@backstage/frontend-plugin-api';
import {
  ARGOCD_NAMESPACE,
  argoSecretName,
  buildInProgressFromStatus,
  buildInProgressMessage,
  ClusterRemovalView,
  ClusterView,
  DEFAULT_TOFU_NAMESPACE,
  INFRARED_NAMESPACE,
  kubeconfigSecretName,
  tofuStateSecretName,
} from '@infrared-clusters/plugin-infrared-common';
import { infraredApiRef } from '../../api';
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
  const last = cluster.provision?.status;
  const destroyed =
    last?.action === 'destroy' && last.phase === 'Succeeded' ? last : undefined;

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

  const gitopsFile = cluster.gitopsPath
    ? `the app-of-apps file ${cluster.gitopsPath} in the gitops repo`
    : 'the app-of-apps file in the gitops repo, if registration wrote one';

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
        <Typography variant="subtitle2">What is removed</Typography>
        <ul data-testid="removed">
          <li>the Cluster {name}</li>
          {cluster.connection === 'inCluster' ? (
            <li>
              nothing else: it is reached in-cluster, so it has no kubeconfig
              Secret and no Argo CD cluster Secret
            </li>
          ) : (
            <>
              <li>
                its kubeconfig Secret {kubeconfigSecretName(name)} in namespace{' '}
                {INFRARED_NAMESPACE}
              </li>
              <li>
                its Argo CD cluster Secret {argoSecretName(name)} in namespace{' '}
                {ARGOCD_NAMESPACE}: Argo CD stops deploying to the cluster
              </li>
            </>
          )}
        </ul>
        <Typography variant="subtitle2">What stays</Typography>
        <ul data-testid="stays">
          <li>{gitopsFile}: remove it with a pull request</li>
          <li>
            everything on the cluster itself: nothing on {name} is deleted
          </li>
          {cluster.template && (
            <li data-testid="stays-cloud">
              {destroyed
                ? `nothing OpenTofu built from template ${cluster.template.module}: its destroy (Job ${destroyed.job}) succeeded. What stays is`
                : `the cloud resources OpenTofu built from template ${cluster.template.module}: removing the cluster does not destroy them, and they cost money until you destroy them (run the destroy action first), along with`}{' '}
              the OpenTofu state Secret {tofuStateSecretName(name)} in the
              OpenTofu Jobs' namespace (infrared.provisioning.namespace, default{' '}
              {DEFAULT_TOFU_NAMESPACE})
            </li>
          )}
        </ul>
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

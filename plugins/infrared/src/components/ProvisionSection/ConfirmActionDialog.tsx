import { useState } from 'react';
import Button from '@material-ui/core/Button';
import Checkbox from '@material-ui/core/Checkbox';
import CircularProgress from '@material-ui/core/CircularProgress';
import Dialog from '@material-ui/core/Dialog';
import DialogActions from '@material-ui/core/DialogActions';
import DialogContent from '@material-ui/core/DialogContent';
import DialogTitle from '@material-ui/core/DialogTitle';
import FormControlLabel from '@material-ui/core/FormControlLabel';
import TextField from '@material-ui/core/TextField';
import Alert from '@material-ui/lab/Alert';
import type {
  ClusterView,
  ProvisionAction,
} from '@infrared-clusters/plugin-infrared-common';
import { ApplyCaution, appliesWithCredentials } from './ApplyCaution';

export interface ConfirmActionDialogProps {
  cluster: ClusterView;
  confirm: ProvisionAction;
  busy: boolean;
  error?: string;
  onCancel: () => void;
  onConfirm: () => void;
}

/** Apply (with the billable caution, acknowledged) or Destroy (typing the cluster's name). */
export const ConfirmActionDialog = ({
  cluster,
  confirm,
  busy,
  error,
  onCancel,
  onConfirm,
}: ConfirmActionDialogProps) => {
  const [acknowledged, setAcknowledged] = useState(false);
  const [typedName, setTypedName] = useState('');
  return (
    <Dialog
      open
      onClose={busy ? undefined : onCancel}
      aria-labelledby="provision-action-title"
    >
      <DialogTitle id="provision-action-title">
        {confirm === 'apply'
          ? `Apply ${cluster.name}?`
          : `Destroy ${cluster.name}?`}
      </DialogTitle>
      <DialogContent>
        {confirm === 'apply' ? (
          <>
            <ApplyCaution cluster={cluster} />
            <FormControlLabel
              control={
                <Checkbox
                  checked={acknowledged}
                  onChange={e => setAcknowledged(e.target.checked)}
                />
              }
              label={
                appliesWithCredentials(cluster)
                  ? 'I understand that apply creates billable resources'
                  : 'I understand what apply creates'
              }
            />
          </>
        ) : (
          <>
            <Alert severity="warning">
              Destroy deletes every resource the template built for{' '}
              {cluster.name}. Type the cluster's name to go ahead.
            </Alert>
            <TextField
              label="Cluster name"
              value={typedName}
              onChange={e => setTypedName(e.target.value)}
              fullWidth
              margin="normal"
              inputProps={{
                'aria-label': 'Type the cluster name to destroy it',
                spellCheck: false,
              }}
            />
          </>
        )}
        {error && <Alert severity="error">{error}</Alert>}
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel} disabled={busy}>
          Cancel
        </Button>
        <Button
          variant="contained"
          color={confirm === 'apply' ? 'primary' : 'secondary'}
          onClick={onConfirm}
          disabled={
            busy ||
            (confirm === 'apply' ? !acknowledged : typedName !== cluster.name)
          }
          startIcon={busy ? <CircularProgress size={16} /> : undefined}
        >
          {confirm === 'apply' ? 'Apply' : 'Destroy'}
        </Button>
      </DialogActions>
    </Dialog>
  );
};

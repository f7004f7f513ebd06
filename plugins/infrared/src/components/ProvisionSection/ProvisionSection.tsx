import { useState } from 'react';
import Box from '@material-ui/core/Box';
import Button from '@material-ui/core/Button';
import Checkbox from '@material-ui/core/Checkbox';
import CircularProgress from '@material-ui/core/CircularProgress';
import Dialog from '@material-ui/core/Dialog';
import DialogActions from '@material-ui/core/DialogActions';
import DialogContent from '@material-ui/core/DialogContent';
import DialogTitle from '@material-ui/core/DialogTitle';
import FormControlLabel from '@material-ui/core/FormControlLabel';
import TextField from '@material-ui/core/TextField';
import Typography from '@material-ui/core/Typography';
import Alert from '@material-ui/lab/Alert';
import { useApi } from '@backstage/frontend-plugin-api';
import { usePermission } from '@backstage/plugin-permission-react';
import {
  infraredClusterProvisionPermission,
  type ClusterView,
  type ProvisionAction,
} from '@infrared-clusters/plugin-infrared-common';
import { infraredApiRef } from '../../api';
import { PermissionButton } from '../PermissionButton';

export interface ProvisionSectionProps {
  cluster: ClusterView;
  /** Called with the cluster as the API answered after an action change. */
  onChanged?: (cluster: ClusterView) => void;
}

const PROVISION_DENIED =
  'Only platform admins may apply or destroy (permission infrared.cluster.provision)';

/** "N to add, M to change, K to destroy", as OpenTofu says it. */
export const summaryText = (s: {
  add: number;
  change: number;
  destroy: number;
}) => `${s.add} to add, ${s.change} to change, ${s.destroy} to destroy`;

/**
 * The cluster panel's Build section for a cluster built with OpenTofu: the template, the last
 * Job's phase and message, a plan's summary and resources, the Job's log (credentials redacted by
 * the backend), and Apply (with the billable caution) or Destroy (typing the cluster's name).
 */
export const ProvisionSection = ({
  cluster,
  onChanged,
}: ProvisionSectionProps) => {
  const api = useApi(infraredApiRef);
  const permission = usePermission({
    permission: infraredClusterProvisionPermission,
  });
  const [log, setLog] = useState<string>();
  const [logError, setLogError] = useState<string>();
  const [confirm, setConfirm] = useState<ProvisionAction>();
  const [acknowledged, setAcknowledged] = useState(false);
  const [typedName, setTypedName] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const provision = cluster.provision;
  if (!cluster.template || !provision) return null;
  const status = provision.status;
  let allowance: { allowed: boolean; reason?: string } = { allowed: true };
  if (permission.loading)
    allowance = { allowed: false, reason: 'Checking your permission…' };
  else if (!permission.allowed)
    allowance = { allowed: false, reason: PROVISION_DENIED };

  const showLog = async () => {
    setLogError(undefined);
    try {
      setLog((await api.getProvisionLog(cluster.name)).log);
    } catch (e) {
      setLogError((e as Error).message);
    }
  };
  const close = () => {
    setConfirm(undefined);
    setAcknowledged(false);
    setTypedName('');
    setError(undefined);
  };
  const run = async () => {
    if (!confirm) return;
    setBusy(true);
    setError(undefined);
    try {
      const updated = await api.setProvisionAction(
        cluster.name,
        confirm,
        confirm !== 'plan',
      );
      onChanged?.(updated);
      close();
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Box aria-label="Build with OpenTofu" role="group">
      <Typography variant="h6" component="h3">
        Build with OpenTofu
      </Typography>
      <Typography variant="body2">
        Template {cluster.template.module}
        {cluster.template.version ? `@${cluster.template.version}` : ''}, action{' '}
        <strong>{provision.action}</strong>
        {provision.credentialsSecret
          ? `, credentials Secret ${provision.credentialsSecret}`
          : ''}
      </Typography>
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
      <Box mt={1} display="flex" style={{ gap: 8 }} alignItems="flex-start">
        {status && (
          <Button variant="outlined" size="small" onClick={showLog}>
            Show log
          </Button>
        )}
        {provision.action !== 'apply' && (
          <PermissionButton
            allowance={allowance}
            variant="contained"
            color="primary"
            size="small"
            onClick={() => setConfirm('apply')}
          >
            Apply
          </PermissionButton>
        )}
        {provision.action === 'apply' && (
          <PermissionButton
            allowance={allowance}
            variant="outlined"
            color="secondary"
            size="small"
            onClick={() => setConfirm('destroy')}
          >
            Destroy
          </PermissionButton>
        )}
      </Box>
      {logError && <Alert severity="error">{logError}</Alert>}
      {log !== undefined && (
        <Box
          component="pre"
          aria-label="OpenTofu log"
          mt={1}
          p={1}
          style={{
            maxHeight: 320,
            overflow: 'auto',
            fontSize: 12,
            background: 'rgba(0,0,0,0.04)',
            whiteSpace: 'pre-wrap',
          }}
        >
          {log || '(empty)'}
        </Box>
      )}
      {confirm && (
        <Dialog
          open
          onClose={busy ? undefined : close}
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
                <Alert severity="warning" data-testid="billable-caution">
                  Apply creates billable resources: it creates real cloud
                  resources in the account the credentials belong to, and they
                  cost money until you destroy them. Removing the cluster does
                  not destroy them.
                </Alert>
                <FormControlLabel
                  control={
                    <Checkbox
                      checked={acknowledged}
                      onChange={e => setAcknowledged(e.target.checked)}
                    />
                  }
                  label="I understand that apply creates billable resources"
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
            <Button onClick={close} disabled={busy}>
              Cancel
            </Button>
            <Button
              variant="contained"
              color={confirm === 'apply' ? 'primary' : 'secondary'}
              onClick={run}
              disabled={
                busy ||
                (confirm === 'apply'
                  ? !acknowledged
                  : typedName !== cluster.name)
              }
              startIcon={busy ? <CircularProgress size={16} /> : undefined}
            >
              {confirm === 'apply' ? 'Apply' : 'Destroy'}
            </Button>
          </DialogActions>
        </Dialog>
      )}
    </Box>
  );
};

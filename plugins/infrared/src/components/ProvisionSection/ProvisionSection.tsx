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
import { ApplyCaution, appliesWithCredentials } from './ApplyCaution';
import { ProvisionLog } from './ProvisionLog';

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

  const destroyed =
    status?.action === 'destroy' && status.phase === 'Succeeded';
  const close = () => {
    setConfirm(undefined);
    setAcknowledged(false);
    setTypedName('');
    setError(undefined);
  };
  const run = async (action = confirm) => {
    if (!action) return;
    setBusy(true);
    setError(undefined);
    try {
      const updated = await api.setProvisionAction(
        cluster.name,
        action,
        action !== 'plan',
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
      {destroyed && (
        <Alert severity="info" data-testid="destroyed" style={{ marginTop: 8 }}>
          Destroyed: what the template built for {cluster.name} is gone, and
          Argo CD no longer deploys to it. Remove the cluster, or plan or apply
          it again (a new generation).
        </Alert>
      )}
      <Box
        mt={1}
        display="flex"
        flexWrap="wrap"
        style={{ gap: 8 }}
        alignItems="flex-start"
      >
        {status && <ProvisionLog cluster={cluster.name} status={status} />}
        {destroyed && (
          <PermissionButton
            allowance={allowance}
            variant="outlined"
            color="primary"
            size="small"
            disabled={busy}
            onClick={() => run('plan')}
          >
            Plan
          </PermissionButton>
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
      {!confirm && error && <Alert severity="error">{error}</Alert>}
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
            <Button onClick={close} disabled={busy}>
              Cancel
            </Button>
            <Button
              variant="contained"
              color={confirm === 'apply' ? 'primary' : 'secondary'}
              onClick={() => run()}
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

import { useState } from 'react';
import Box from '@material-ui/core/Box';
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
import { ConfirmActionDialog } from './ConfirmActionDialog';
import { JobStatus } from './JobStatus';
import { ProvisionLog } from './ProvisionLog';

export interface ProvisionSectionProps {
  cluster: ClusterView;
  /** Called with the cluster as the API answered after an action change. */
  onChanged?: (cluster: ClusterView) => void;
}

const PROVISION_DENIED =
  'Only platform admins may apply or destroy (permission infrared.cluster.provision)';

export { summaryText } from './JobStatus';

/** The permission to act, the action being confirmed, and `run`, which asks the API for it. */
function useProvisionAction(
  cluster: ClusterView,
  onChanged?: (cluster: ClusterView) => void,
) {
  const api = useApi(infraredApiRef);
  const permission = usePermission({
    permission: infraredClusterProvisionPermission,
  });
  const [confirm, setConfirm] = useState<ProvisionAction>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  let allowance: { allowed: boolean; reason?: string } = { allowed: true };
  if (permission.loading)
    allowance = { allowed: false, reason: 'Checking your permission…' };
  else if (!permission.allowed)
    allowance = { allowed: false, reason: PROVISION_DENIED };

  const close = () => {
    setConfirm(undefined);
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

  return { allowance, confirm, setConfirm, busy, error, close, run };
}

/** The template, the action asked for, and the credentials Secret's name. */
const TemplateLine = ({ cluster }: { cluster: ClusterView }) => (
  <Typography variant="body2">
    Template {cluster.template?.module}
    {cluster.template?.version ? `@${cluster.template.version}` : ''}, action{' '}
    <strong>{cluster.provision?.action}</strong>
    {cluster.provision?.credentialsSecret
      ? `, credentials Secret ${cluster.provision.credentialsSecret}`
      : ''}
  </Typography>
);

/**
 * The cluster panel's Build section for a cluster built with OpenTofu: the template, the last
 * Job's phase and message, a plan's summary and resources, the Job's log (credentials redacted by
 * the backend), and Apply (with the billable caution) or Destroy (typing the cluster's name).
 */
export const ProvisionSection = ({
  cluster,
  onChanged,
}: ProvisionSectionProps) => {
  const action = useProvisionAction(cluster, onChanged);
  const { allowance, confirm, setConfirm, busy, error, close, run } = action;
  const provision = cluster.provision;
  if (!cluster.template || !provision) return null;
  const status = provision.status;
  const destroyed =
    status?.action === 'destroy' && status.phase === 'Succeeded';

  return (
    <Box aria-label="Build with OpenTofu" role="group">
      <Typography variant="h6" component="h3">
        Build with OpenTofu
      </Typography>
      <TemplateLine cluster={cluster} />
      <JobStatus cluster={cluster} destroyed={destroyed} />
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
        <ConfirmActionDialog
          cluster={cluster}
          confirm={confirm}
          busy={busy}
          error={error}
          onCancel={close}
          onConfirm={() => run()}
        />
      )}
    </Box>
  );
};

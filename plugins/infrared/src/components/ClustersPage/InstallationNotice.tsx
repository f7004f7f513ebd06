import { useEffect, useState } from 'react';
import Alert from '@material-ui/lab/Alert';
import { useApi } from '@backstage/frontend-plugin-api';
import type { HealthStatus } from '@infrared-clusters/plugin-infrared-common';
import { infraredApiRef } from '../../api';

/** How often the page asks again whether this installation manages the management cluster. */
const HEALTH_POLL_MS = 30_000;

/**
 * What the backend's /health says when this installation does not manage the management cluster:
 * another installation holds its Lease (nothing here reconciles or writes), or it is not known yet.
 */
export const InstallationNotice = ({
  pollMs = HEALTH_POLL_MS,
}: {
  pollMs?: number;
}) => {
  const api = useApi(infraredApiRef);
  const [health, setHealth] = useState<HealthStatus>();
  useEffect(() => {
    let live = true;
    const load = () =>
      api
        .health()
        .then(h => live && setHealth(h))
        .catch(() => undefined);
    load();
    const timer = setInterval(load, pollMs);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, [api, pollMs]);
  const installation = health?.installation;
  if (!installation) return null;
  if (installation.state !== 'refused' && installation.state !== 'pending')
    return null;
  return (
    <Alert
      severity={installation.state === 'refused' ? 'error' : 'warning'}
      style={{ marginBottom: 16 }}
      aria-label="Installation"
    >
      {installation.state === 'refused'
        ? 'This portal does not manage the management cluster: '
        : 'This portal does not know yet whether it manages the management cluster: '}
      {installation.message}
    </Alert>
  );
};

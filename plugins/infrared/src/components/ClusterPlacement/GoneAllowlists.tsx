import { useState } from 'react';
import Button from '@material-ui/core/Button';
import Typography from '@material-ui/core/Typography';
import Alert from '@material-ui/lab/Alert';
import type { Allowance } from '../../hooks/useClusterPermissions';
import type { GoneEntry } from '../../hooks/useGoneAllowlists';

export interface GoneAllowlistsProps {
  /** The entries naming a cluster that is gone (useGoneAllowlists). */
  gone: GoneEntry[];
  allowance: Allowance;
  onTakeOff: (org: string, cluster: string) => Promise<void>;
}

/**
 * Allowlist entries that name a cluster no Cluster has (issue 22.7): removed outside the API, which
 * takes the name off, or not registered yet. Says so, and offers platform admins to take it off, since
 * a cluster registered later under that name would be allowed by the entry.
 */
export const GoneAllowlists = ({
  gone,
  allowance,
  onTakeOff,
}: GoneAllowlistsProps) => {
  const [error, setError] = useState<string>();
  const [saving, setSaving] = useState<string>();
  if (!gone.length) return null;

  const takeOff = async (org: string, cluster: string) => {
    setSaving(`${org}/${cluster}`);
    setError(undefined);
    try {
      await onTakeOff(org, cluster);
    } catch (e) {
      setError(`Could not take ${cluster} off ${org}: ${(e as Error).message}`);
    } finally {
      setSaving(undefined);
    }
  };

  return (
    <Alert
      severity="warning"
      style={{ marginBottom: 16 }}
      aria-label="Allowlists naming clusters that are gone"
    >
      <Typography variant="body2">
        These allowlist entries name a cluster that is gone (no Cluster has the
        name: removed with kubectl, or not registered yet). A zone placed on it
        fails, and a cluster registered later under the name would be allowed by
        the entry.
      </Typography>
      <ul>
        {gone.map(({ org, cluster }) => (
          <li key={`${org}/${cluster}`}>
            org {org}: {cluster} (gone){' '}
            <Button
              size="small"
              disabled={!allowance.allowed || saving !== undefined}
              onClick={() => takeOff(org, cluster)}
              aria-label={`Take ${cluster} off ${org}'s allowlist`}
            >
              Take off
            </Button>
          </li>
        ))}
      </ul>
      {error && <Typography variant="body2">{error}</Typography>}
    </Alert>
  );
};

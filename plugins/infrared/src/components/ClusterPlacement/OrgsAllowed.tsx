import { useState } from 'react';
import Checkbox from '@material-ui/core/Checkbox';
import FormControlLabel from '@material-ui/core/FormControlLabel';
import FormGroup from '@material-ui/core/FormGroup';
import Typography from '@material-ui/core/Typography';
import Alert from '@material-ui/lab/Alert';
import type { OrganizationView } from '@infrared-clusters/plugin-infrared-common';
import type { Allowance } from '../../hooks/useClusterPermissions';

export interface OrgsAllowedProps {
  cluster: string;
  /** Every Organization; undefined while loading. */
  orgs?: OrganizationView[];
  allowance: Allowance;
  onChange: (org: string, cluster: string, allowed: boolean) => Promise<void>;
}

/** What a tick does: there is no Save button. */
const SavesAtOnceNote = () => (
  <Typography
    variant="caption"
    component="p"
    color="textSecondary"
    data-testid="orgs-allowed-note"
  >
    A tick saves at once: it changes that org&apos;s cluster allowlist right
    away (no Save button), the release gate looks again, and each change is
    audited with who made it and the allowlist before and after.
  </Typography>
);

const orgLabel = (org: OrganizationView) =>
  org.displayName && org.displayName !== org.name
    ? `${org.name} (${org.displayName})`
    : org.name;

/**
 * One checkbox per Organization: ticked when the org's cluster allowlist holds the cluster.
 * Ticking one replaces that org's allowlist through the API (platform admins only).
 */
export const OrgsAllowed = ({
  cluster,
  orgs,
  allowance,
  onChange,
}: OrgsAllowedProps) => {
  const [saving, setSaving] = useState<string>();
  const [error, setError] = useState<string>();

  if (!orgs) {
    return (
      <Typography variant="body2" color="textSecondary" paragraph>
        Loading…
      </Typography>
    );
  }
  if (!orgs.length) {
    return (
      <Typography variant="body2" color="textSecondary" paragraph>
        There is no Organization yet.
      </Typography>
    );
  }

  const toggle = async (org: string, allowed: boolean) => {
    setSaving(org);
    setError(undefined);
    try {
      await onChange(org, cluster, allowed);
    } catch (e) {
      setError(
        `Could not ${allowed ? 'allow' : 'disallow'} ${org}: ${
          (e as Error).message
        }`,
      );
    } finally {
      setSaving(undefined);
    }
  };

  return (
    <>
      <SavesAtOnceNote />
      {!allowance.allowed && allowance.reason && (
        <Typography variant="body2" color="textSecondary">
          {allowance.reason}.
        </Typography>
      )}
      <FormGroup aria-label="Orgs allowed">
        {orgs.map(org => {
          const allowed = org.clusterAllowlist.includes(cluster);
          return (
            <FormControlLabel
              key={org.name}
              label={orgLabel(org)}
              control={
                <Checkbox
                  checked={allowed}
                  disabled={!allowance.allowed || saving !== undefined}
                  onChange={(_e, checked) => toggle(org.name, checked)}
                  inputProps={{ 'aria-label': `Allow ${org.name}` }}
                  color="primary"
                />
              }
            />
          );
        })}
      </FormGroup>
      {error && (
        <Alert severity="error" style={{ marginTop: 8 }}>
          {error}
        </Alert>
      )}
    </>
  );
};

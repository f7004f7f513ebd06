import { useState } from 'react';
import TextField from '@material-ui/core/TextField';
import type { ZonePlacementView } from '@infrared-clusters/plugin-infrared-common';

export interface ZoneClusterSelectProps {
  zone: ZonePlacementView;
  managementCluster: string;
  onChange: (zone: string, cluster: string) => Promise<void>;
  onError: (message: string | undefined) => void;
}

/**
 * The zone's cluster, chosen from the clusters the org may use (its allowlist), or the management
 * cluster. A cluster the zone names that the org may no longer use stays listed, marked so.
 */
export const ZoneClusterSelect = ({
  zone,
  managementCluster,
  onChange,
  onError,
}: ZoneClusterSelectProps) => {
  const [saving, setSaving] = useState(false);
  const current =
    zone.cluster === managementCluster && !zone.choices.includes(zone.cluster)
      ? ''
      : zone.cluster;
  const options = [...zone.choices];
  if (current && !options.includes(current)) options.unshift(current);

  const change = async (cluster: string) => {
    setSaving(true);
    onError(undefined);
    try {
      await onChange(zone.name, cluster);
    } catch (e) {
      onError(
        `Could not set the cluster of ${zone.name}: ${(e as Error).message}`,
      );
    } finally {
      setSaving(false);
    }
  };

  return (
    <TextField
      select
      size="small"
      value={current}
      disabled={saving}
      onChange={e => change(e.target.value)}
      SelectProps={{ native: true }}
      style={{ width: 120 }}
      inputProps={{ 'aria-label': `Cluster of ${zone.name}` }}
    >
      <option value="">management cluster ({managementCluster})</option>
      {options.map(c => (
        <option key={c} value={c}>
          {zone.choices.includes(c) ? c : `${c} (not on the org's allowlist)`}
        </option>
      ))}
    </TextField>
  );
};

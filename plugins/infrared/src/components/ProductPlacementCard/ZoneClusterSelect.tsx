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
      // No fixed width: the select is as wide as its longest option, so a name is never cut
      // (issue 23.5); the labels are short, and the long words are in each option's title.
      InputProps={{ style: { fontSize: 14 } }}
      // width auto: MUI's input is width 100% of a cell the table may shrink; auto keeps the
      // longest option's width as the cell's least width
      inputProps={{
        'aria-label': `Cluster of ${zone.name}`,
        style: { width: 'auto' },
      }}
    >
      <option
        value=""
        title="the management cluster: the zone names no cluster"
      >
        {managementCluster} (management)
      </option>
      {options.map(c =>
        zone.choices.includes(c) ? (
          <option key={c} value={c}>
            {c}
          </option>
        ) : (
          <option key={c} value={c} title="not on the org's cluster allowlist">
            {c} (not allowed)
          </option>
        ),
      )}
    </TextField>
  );
};

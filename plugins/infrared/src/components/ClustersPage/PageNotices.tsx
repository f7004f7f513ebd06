import Typography from '@material-ui/core/Typography';
import Alert from '@material-ui/lab/Alert';
import type { ClusterRemovalView } from '@infrared-clusters/plugin-infrared-common';
import type { Allowance } from '../../hooks/useClusterPermissions';
import type { GoneEntry } from '../../hooks/useGoneAllowlists';
import { GoneAllowlists } from '../ClusterPlacement';

export interface PageNoticesProps {
  readOnly: boolean;
  removal?: ClusterRemovalView;
  onCloseRemoval: () => void;
  gone: GoneEntry[];
  allowlist: Allowance;
  onTakeOff: (org: string, cluster: string) => Promise<void>;
}

/** What the page says above the list: read-only, the last removal, allowlists naming gone clusters. */
export const PageNotices = (props: PageNoticesProps) => (
  <>
    {props.readOnly && (
      <Alert severity="info" style={{ marginBottom: 16 }}>
        <Typography variant="body2">
          You see this page read-only: only platform admins can register or
          remove clusters.
        </Typography>
      </Alert>
    )}
    {props.removal && (
      <Alert
        severity={props.removal.zones.length ? 'warning' : 'success'}
        style={{ marginBottom: 16 }}
        onClose={props.onCloseRemoval}
        aria-label="Removal"
      >
        {props.removal.message}
      </Alert>
    )}
    <GoneAllowlists
      gone={props.gone}
      allowance={props.allowlist}
      onTakeOff={props.onTakeOff}
    />
  </>
);

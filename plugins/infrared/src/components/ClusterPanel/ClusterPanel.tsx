import Box from '@material-ui/core/Box';
import Divider from '@material-ui/core/Divider';
import Drawer from '@material-ui/core/Drawer';
import IconButton from '@material-ui/core/IconButton';
import Typography from '@material-ui/core/Typography';
import CloseIcon from '@material-ui/icons/Close';
import type {
  ClusterRemovalView,
  ClusterView,
  OrganizationView,
} from '@infrared-clusters/plugin-infrared-common';
import type { Allowance } from '../../hooks/useClusterPermissions';
import type { ClusterPlacement } from '../../lib/clusterPlacement';
import { OrgsAllowed, ZonesPlaced } from '../ClusterPlacement';
import { ProvisionSection } from '../ProvisionSection';
import { RemoveClusterSection } from '../RemoveCluster';
import { ClusterFacts } from './ClusterFacts';
import { ConditionsTable } from './ConditionsTable';
import { DiscoveredConditionsNote } from './RegistrarPassFact';

export interface ClusterPanelProps {
  /** The cluster to show; the drawer is closed without one. */
  cluster?: ClusterView;
  onClose: () => void;
  remove: Allowance;
  onRemoved: (name: string, removal: ClusterRemovalView) => void;
  /** Called after an action changed the cluster (plan, apply, destroy), so the list is read again. */
  onChanged?: () => void;
  /** The cluster's zones and allowed orgs; undefined while loading. */
  placement?: ClusterPlacement;
  /** Every Organization, for the Orgs allowed checkboxes; undefined while loading. */
  orgs?: OrganizationView[];
  /** Why placement could not be loaded, when it could not. */
  placementError?: Error;
  allowlist: Allowance;
  onAllowedChange: (
    org: string,
    cluster: string,
    allowed: boolean,
  ) => Promise<void>;
}

/** Every condition; for a discovered child, what its conditions are and are not. */
const Conditions = ({ cluster }: { cluster: ClusterView }) =>
  cluster.discovered ? (
    <>
      {cluster.conditions.length > 0 && (
        <ConditionsTable conditions={cluster.conditions} />
      )}
      <DiscoveredConditionsNote />
    </>
  ) : (
    <ConditionsTable conditions={cluster.conditions} />
  );

/** A drawer with everything about one cluster: facts, all conditions, and Remove. */
export const ClusterPanel = ({
  cluster,
  onClose,
  remove,
  onRemoved,
  onChanged,
  placement,
  orgs,
  placementError,
  allowlist,
  onAllowedChange,
}: ClusterPanelProps) => (
  <Drawer anchor="right" open={!!cluster} onClose={onClose}>
    {cluster && (
      <Box
        width={760}
        maxWidth="100vw"
        p={3}
        role="region"
        aria-label={`Cluster ${cluster.name}`}
      >
        <Box display="flex" alignItems="center">
          <Typography variant="h5" component="h2" style={{ flexGrow: 1 }}>
            {cluster.name}
          </Typography>
          <IconButton aria-label="Close the cluster panel" onClick={onClose}>
            <CloseIcon />
          </IconButton>
        </Box>
        <ClusterFacts cluster={cluster} />
        <Box my={2}>
          <Divider />
        </Box>
        <Typography variant="h6" component="h3">
          Conditions
        </Typography>
        <Conditions cluster={cluster} />
        <Box my={2}>
          <Divider />
        </Box>
        {cluster.template && (
          <>
            <ProvisionSection cluster={cluster} onChanged={onChanged} />
            <Box my={2}>
              <Divider />
            </Box>
          </>
        )}
        <Typography variant="h6" component="h3">
          Zones placed
        </Typography>
        {placementError && (
          <Typography variant="body2" color="error" paragraph>
            Zones and orgs could not be loaded: {placementError.message}
          </Typography>
        )}
        <ZonesPlaced zones={placement?.zones ?? []} loaded={!!placement} />
        <Typography variant="h6" component="h3">
          Orgs allowed
        </Typography>
        <OrgsAllowed
          cluster={cluster.name}
          orgs={orgs}
          allowance={allowlist}
          onChange={onAllowedChange}
        />
        <Box my={2}>
          <Divider />
        </Box>
        <RemoveClusterSection
          cluster={cluster}
          allowance={remove}
          onRemoved={onRemoved}
        />
      </Box>
    )}
  </Drawer>
);

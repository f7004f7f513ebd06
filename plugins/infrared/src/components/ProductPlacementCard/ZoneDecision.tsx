import Typography from '@material-ui/core/Typography';
import { Link } from '@backstage/core-components';
import type {
  ArgoDestination,
  ProductPlacementView,
  ZonePlacementView,
} from '@infrared-clusters/plugin-infrared-common';
import type { ClusterLinks } from '../../hooks/useClusterLinks';
import { AllowClusterButton } from './AllowClusterButton';
import { DecisionChip } from './DecisionChip';

// Long tokens (paths, URLs) in the reason may break anywhere, so the reason never runs past the card.
const WRAP = { wordBreak: 'normal', overflowWrap: 'anywhere' } as const;
const CODE = { fontFamily: 'monospace', ...WRAP } as const;

function destinationYaml(d: ArgoDestination): string {
  const lines = Object.entries(d)
    .filter(([, v]) => v)
    .map(([k, v], i) => `${i ? '  ' : '- '}${k}: ${v}`);
  return lines.join('\n');
}

export interface ZoneDecisionProps {
  zone: ZonePlacementView;
  placement: ProductPlacementView;
  links: ClusterLinks;
  onAllow: (org: string, cluster: string) => Promise<void>;
  onError: (message: string | undefined) => void;
}

/**
 * A zone's decision with its reason, and the next step where there is one: the AppProject entry to
 * add, "Register it" for a cluster Infrared does not know, or (platform admins) allowing a known
 * cluster for the org, confirmed first. Allowing an unknown cluster is not offered: it would lead
 * nowhere until the cluster is registered (issue 23.2, no dead ends).
 */
export const ZoneDecision = ({
  zone,
  placement,
  links,
  onAllow,
  onError,
}: ZoneDecisionProps) => {
  const org = placement.org?.name;
  const unknown = zone.clusterKnown === false;
  const canAllow =
    !unknown &&
    placement.can.updateAllowlist &&
    org &&
    zone.reason === 'NotOnAllowlist';
  return (
    <>
      <DecisionChip
        zone={zone.name}
        decision={zone.decision}
        reason={zone.reason}
      />
      <Typography
        variant="body2"
        style={{ marginTop: 4, ...WRAP }}
        data-testid={`reason-${zone.name}`}
      >
        {zone.message}
      </Typography>
      {zone.missingDestination && (
        <>
          <Typography variant="caption" color="textSecondary">
            Fix: add this destination to AppProject {zone.project} (namespace
            argocd), under spec.destinations:
          </Typography>
          <pre style={{ margin: '4px 0', whiteSpace: 'pre-wrap', ...CODE }}>
            {destinationYaml(zone.missingDestination)}
          </pre>
        </>
      )}
      {unknown && (
        <Typography
          variant="body2"
          component="p"
          style={{ marginTop: 4, ...WRAP }}
          data-testid={`register-${zone.name}`}
        >
          Cluster {zone.cluster} is not registered yet.{' '}
          <Link to={links.register(zone.cluster)}>Register it</Link> on the
          Clusters page (platform admins)
          {zone.reason === 'NotOnAllowlist' && org
            ? `, then allow org ${org} to use it`
            : ''}
          .
        </Typography>
      )}
      {canAllow && (
        <AllowClusterButton
          org={org!}
          cluster={zone.cluster}
          onAllow={onAllow}
          onError={onError}
        />
      )}
    </>
  );
};

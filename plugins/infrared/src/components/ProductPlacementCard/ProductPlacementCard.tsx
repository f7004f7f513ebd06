import { useState } from 'react';
import Button from '@material-ui/core/Button';
import Table from '@material-ui/core/Table';
import TableBody from '@material-ui/core/TableBody';
import TableCell from '@material-ui/core/TableCell';
import TableHead from '@material-ui/core/TableHead';
import TableRow from '@material-ui/core/TableRow';
import Typography from '@material-ui/core/Typography';
import Alert from '@material-ui/lab/Alert';
import { InfoCard, Progress } from '@backstage/core-components';
import { useEntity } from '@backstage/plugin-catalog-react';
import {
  parseProductRef,
  PRODUCT_ANNOTATION,
  type ArgoDestination,
  type ProductPlacementView,
  type ZonePlacementView,
} from '@infrared-clusters/plugin-infrared-common';
import { useProductPlacement } from '../../hooks/useProductPlacement';
import { BreakableText } from '../BreakableText';
import { DecisionChip } from './DecisionChip';
import { ZoneApproval } from './ZoneApproval';
import { ZoneClusterSelect } from './ZoneClusterSelect';

const TITLE = 'Zone placement';
// The theme lets table cells break anywhere: words wrap between words here, paths after a /.
const TEXT = { wordBreak: 'normal', overflowWrap: 'break-word' } as const;
const TOKEN = { whiteSpace: 'nowrap' } as const;
const CODE = { fontFamily: 'monospace', ...TEXT } as const;

function destinationText(d: ArgoDestination): string {
  const where = d.name ? `cluster ${d.name}` : d.server;
  return `${where}, namespace ${d.namespace}`;
}

function destinationYaml(d: ArgoDestination): string {
  const lines = Object.entries(d)
    .filter(([, v]) => v)
    .map(([k, v], i) => `${i ? '  ' : '- '}${k}: ${v}`);
  return lines.join('\n');
}

interface ZoneRowProps {
  zone: ZonePlacementView;
  placement: ProductPlacementView;
  onSetCluster: (zone: string, cluster: string) => Promise<void>;
  onAllow: (org: string, cluster: string) => Promise<void>;
  onApprove: (release: string, zone: string) => Promise<void>;
  onError: (message: string | undefined) => void;
}

const ZoneRow = ({
  zone,
  placement,
  onSetCluster,
  onAllow,
  onApprove,
  onError,
}: ZoneRowProps) => {
  const [allowing, setAllowing] = useState(false);
  const org = placement.org?.name;
  const canAllow =
    placement.can.updateAllowlist && org && zone.reason === 'NotOnAllowlist';
  const allow = async () => {
    setAllowing(true);
    onError(undefined);
    try {
      await onAllow(org!, zone.cluster);
    } catch (e) {
      onError(
        `Could not allow ${org} to use ${zone.cluster}: ${
          (e as Error).message
        }`,
      );
    } finally {
      setAllowing(false);
    }
  };
  const phase = zone.release?.phase;
  return (
    <TableRow data-testid={`zone-row-${zone.name}`}>
      <TableCell style={TEXT}>
        <Typography variant="body2" style={TOKEN}>
          <strong>{zone.name}</strong>
        </Typography>
        <Typography variant="caption" color="textSecondary" style={TEXT}>
          {zone.environment}, approval {zone.approval}
        </Typography>
        <Typography
          variant="caption"
          component="p"
          style={{ ...CODE, marginTop: 4 }}
          data-testid={`application-path-${zone.name}`}
          title={`Application ${zone.applicationName} → ${destinationText(
            zone.destination,
          )}, AppProject ${zone.project}`}
        >
          <BreakableText text={zone.applicationPath} />
        </Typography>
        <Typography variant="caption" color="textSecondary" style={TEXT}>
          → {destinationText(zone.destination)}
        </Typography>
      </TableCell>
      <TableCell>
        {placement.can.setZoneCluster ? (
          <ZoneClusterSelect
            zone={zone}
            managementCluster={placement.managementCluster}
            onChange={onSetCluster}
            onError={onError}
          />
        ) : (
          <Typography variant="body2">{zone.cluster}</Typography>
        )}
      </TableCell>
      <TableCell style={{ ...TEXT, minWidth: 170 }}>
        <DecisionChip
          zone={zone.name}
          decision={zone.decision}
          reason={zone.reason}
        />
        <Typography variant="body2" style={{ marginTop: 4 }}>
          {zone.message}
        </Typography>
        {zone.missingDestination && (
          <>
            <Typography variant="caption" color="textSecondary">
              Fix: add this destination to AppProject {zone.project} (namespace
              argocd), under spec.destinations:
            </Typography>
            <pre style={{ margin: '4px 0', ...CODE }}>
              {destinationYaml(zone.missingDestination)}
            </pre>
          </>
        )}
        {canAllow && (
          <Button
            size="small"
            variant="outlined"
            color="primary"
            disabled={allowing}
            onClick={allow}
          >
            Allow {org} to use {zone.cluster}
          </Button>
        )}
      </TableCell>
      <TableCell style={TEXT}>
        {zone.release ? (
          <>
            <Typography variant="body2" title={zone.release.message}>
              {phase ?? 'not reached yet'}
            </Typography>
            {zone.release.reason && (
              <Typography variant="caption" color="textSecondary">
                {zone.release.reason}
              </Typography>
            )}
            <ZoneApproval
              zone={zone}
              mayApprove={placement.can.approveZones}
              org={placement.org?.name}
              onApprove={onApprove}
              onError={onError}
            />
          </>
        ) : (
          <Typography variant="body2" color="textSecondary">
            —
          </Typography>
        )}
      </TableCell>
    </TableRow>
  );
};

/** The placement of one Product: a row per zone. */
export const ProductPlacement = ({
  namespace,
  name,
}: {
  namespace: string;
  name: string;
}) => {
  const state = useProductPlacement(namespace, name);
  const [actionError, setActionError] = useState<string>();
  const { placement, error } = state;

  if (!placement) {
    return (
      <InfoCard title={TITLE}>
        {error ? (
          <Alert severity="error">
            The placement of Product {namespace}/{name} could not be loaded:{' '}
            {error.message}
          </Alert>
        ) : (
          <Progress />
        )}
      </InfoCard>
    );
  }
  const release = placement.latestRelease;
  const subheader = [
    `Product ${placement.namespace}/${placement.name}`,
    placement.org
      ? `org ${placement.org.name}, clusters allowed: ${
          placement.allowedClusters.join(', ') || 'none'
        }`
      : 'no Organization holds its namespace',
  ].join(' · ');
  return (
    <InfoCard title={TITLE} subheader={subheader}>
      {(actionError || error) && (
        <Alert severity="error" style={{ marginBottom: 8 }}>
          {actionError ?? `Refreshing failed: ${error!.message}`}
        </Alert>
      )}
      {!placement.zones.length ? (
        <Typography variant="body2">
          The Product has no delivery zones (spec.delivery.zones).
        </Typography>
      ) : (
        <Table size="small" aria-label="Zones">
          <TableHead>
            <TableRow>
              <TableCell>Zone and Application</TableCell>
              <TableCell>Cluster</TableCell>
              <TableCell>Decision</TableCell>
              <TableCell title={release?.name} style={TOKEN}>
                {release?.version ? `Release ${release.version}` : 'Release'}
              </TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {placement.zones.map(zone => (
              <ZoneRow
                key={zone.name}
                zone={zone}
                placement={placement}
                onSetCluster={state.setZoneCluster}
                onAllow={state.allowCluster}
                onApprove={state.approveZone}
                onError={setActionError}
              />
            ))}
          </TableBody>
        </Table>
      )}
    </InfoCard>
  );
};

/**
 * The zone-placement card of a catalog entity annotated `infrared.darkshift.io/product:
 * <namespace>/<name>`: per zone its cluster, the decision with its reason, the Application path and
 * the latest Release's zone phase, with its approval (the Approve button for a zone awaiting one).
 */
export const ProductPlacementCard = () => {
  const { entity } = useEntity();
  const ref = parseProductRef(
    entity.metadata.annotations?.[PRODUCT_ANNOTATION],
  );
  if ('error' in ref) {
    return (
      <InfoCard title={TITLE}>
        <Alert severity="warning">{ref.error}</Alert>
      </InfoCard>
    );
  }
  return <ProductPlacement namespace={ref.namespace} name={ref.name} />;
};

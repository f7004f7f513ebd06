import { useState } from 'react';
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
  explainReleasePhase,
  parseProductRef,
  PRODUCT_ANNOTATION,
  type ArgoDestination,
  type ProductPlacementView,
  type ZonePlacementView,
} from '@infrared-clusters/plugin-infrared-common';
import { useProductPlacement } from '../../hooks/useProductPlacement';
import { BreakableText } from '../BreakableText';
import {
  useClusterLinks,
  type ClusterLinks,
} from '../../hooks/useClusterLinks';
import { ClusterLink } from './ClusterLink';
import { ZoneClusterSelect } from './ZoneClusterSelect';
import { ZoneDecision } from './ZoneDecision';
import { ZoneRelease } from './ZoneRelease';

const TITLE = 'Zone placement';
// The theme lets table cells break anywhere: words wrap between words here, paths after a /.
const TEXT = { wordBreak: 'normal', overflowWrap: 'break-word' } as const;
const TOKEN = { whiteSpace: 'nowrap' } as const;
const CODE = { fontFamily: 'monospace', ...TEXT } as const;

function destinationText(d: ArgoDestination): string {
  const where = d.name ? `cluster ${d.name}` : d.server;
  return `${where}, namespace ${d.namespace}`;
}

interface ZoneRowProps {
  zone: ZonePlacementView;
  placement: ProductPlacementView;
  links: ClusterLinks;
  onSetCluster: (zone: string, cluster: string) => Promise<void>;
  onAllow: (org: string, cluster: string) => Promise<void>;
  onApprove: (release: string, zone: string) => Promise<void>;
  onError: (message: string | undefined) => void;
}

/** The zone's cluster: its select (org admins) or its name, linked to its panel when it is known. */
const ZoneCluster = ({
  zone,
  placement,
  links,
  onSetCluster,
  onError,
}: Omit<ZoneRowProps, 'onAllow' | 'onApprove'>) => {
  const known = zone.clusterKnown !== false;
  if (!placement.can.setZoneCluster) {
    return (
      <Typography variant="body2" style={TOKEN}>
        on{' '}
        {known ? (
          <ClusterLink name={zone.cluster} links={links} />
        ) : (
          zone.cluster
        )}
      </Typography>
    );
  }
  return (
    <>
      <ZoneClusterSelect
        zone={zone}
        managementCluster={placement.managementCluster}
        onChange={onSetCluster}
        onError={onError}
      />
      {known && (
        <Typography variant="caption" component="p" style={TOKEN}>
          Panel: <ClusterLink name={zone.cluster} links={links} />
        </Typography>
      )}
    </>
  );
};

const ZoneRow = (props: ZoneRowProps) => {
  const { zone, placement, links } = props;
  const d = zone.destination;
  return (
    <TableRow data-testid={`zone-row-${zone.name}`}>
      <TableCell style={TEXT}>
        <Typography variant="body2" style={TOKEN}>
          <strong>{zone.name}</strong>
        </Typography>
        <Typography variant="caption" color="textSecondary" style={TEXT}>
          {zone.environment}, approval {zone.approval}
        </Typography>
        <div style={{ margin: '4px 0' }}>
          <ZoneCluster {...props} />
        </div>
        <Typography
          variant="caption"
          component="p"
          style={{ ...CODE, marginTop: 4 }}
          data-testid={`application-path-${zone.name}`}
          title={`Application ${zone.applicationName} → ${destinationText(
            d,
          )}, AppProject ${zone.project}`}
        >
          <BreakableText text={zone.applicationPath} />
        </Typography>
        <Typography
          variant="caption"
          color="textSecondary"
          style={TEXT}
          data-testid={`destination-${zone.name}`}
        >
          →{' '}
          {d.name && zone.clusterKnown !== false ? (
            <>
              cluster <ClusterLink name={d.name} links={links} />
            </>
          ) : (
            destinationText(d).replace(/, namespace .*$/, '')
          )}
          , namespace {d.namespace}
        </Typography>
      </TableCell>
      <TableCell style={{ ...TEXT, minWidth: 170 }}>
        <ZoneDecision
          zone={zone}
          placement={placement}
          links={links}
          onAllow={props.onAllow}
          onError={props.onError}
        />
      </TableCell>
      <TableCell style={TEXT}>
        <ZoneRelease
          zone={zone}
          placement={placement}
          onApprove={props.onApprove}
          onError={props.onError}
        />
      </TableCell>
    </TableRow>
  );
};

/** The card's subheader: the Product, its org and the clusters the org may use, each linked. */
const Subheader = ({
  placement,
  links,
}: {
  placement: ProductPlacementView;
  links: ClusterLinks;
}) => (
  <span data-testid="placement-subheader">
    Product {placement.namespace}/{placement.name} ·{' '}
    {placement.org ? (
      <>
        org {placement.org.name}, clusters allowed:{' '}
        {placement.allowedClusters.length
          ? placement.allowedClusters.map((c, i) => (
              <span key={c}>
                {i ? ', ' : ''}
                <ClusterLink name={c} links={links} />
              </span>
            ))
          : 'none'}
      </>
    ) : (
      'no Organization holds its namespace'
    )}
  </span>
);

/** The latest Release's own phase, in words (-common's explainReleasePhase). */
const ReleaseWords = ({ placement }: { placement: ProductPlacementView }) => {
  const release = placement.latestRelease;
  if (!release?.phase) return null;
  const words = explainReleasePhase(release.phase);
  return (
    <Typography
      variant="body2"
      style={{ marginTop: 8, ...TEXT }}
      data-testid="release-phase-words"
    >
      Release {release.version ?? release.name} is {release.phase}: it waits for{' '}
      {words.waitsFor}. Next: {words.next}.
    </Typography>
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
  const links = useClusterLinks();

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
  return (
    <InfoCard
      title={TITLE}
      subheader={<Subheader placement={placement} links={links} />}
    >
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
              <TableCell>Zone, cluster and Application</TableCell>
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
                links={links}
                onSetCluster={state.setZoneCluster}
                onAllow={state.allowCluster}
                onApprove={state.approveZone}
                onError={setActionError}
              />
            ))}
          </TableBody>
        </Table>
      )}
      <ReleaseWords placement={placement} />
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

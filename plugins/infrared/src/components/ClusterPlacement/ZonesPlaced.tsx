import Typography from '@material-ui/core/Typography';
import type { ZoneView } from '@infrared-clusters/plugin-infrared-common';

export interface ZonesPlacedProps {
  zones: ZoneView[];
  /** False while the zones are loading. */
  loaded: boolean;
}

/** The Product zones that run on a cluster, for its panel. */
export const ZonesPlaced = ({ zones, loaded }: ZonesPlacedProps) => {
  if (!loaded) {
    return (
      <Typography variant="body2" color="textSecondary" paragraph>
        Loading…
      </Typography>
    );
  }
  if (!zones.length) {
    return (
      <Typography variant="body2" color="textSecondary" paragraph>
        No Product zone runs here. An org places a zone with its Product's
        spec.delivery.zones[].cluster, from the clusters on its allowlist.
      </Typography>
    );
  }
  return (
    <ul aria-label="Zones placed" style={{ marginTop: 4 }}>
      {zones.map(z => (
        <li key={`${z.product.namespace}/${z.product.name}/${z.zone}`}>
          <Typography variant="body2" component="span">
            <strong>
              {z.product.displayName}/{z.zone}
            </strong>{' '}
            ({z.environment}
            {z.org ? `, org ${z.org}` : ''}
            {z.clusterSet ? '' : ', no cluster set: the management cluster'})
          </Typography>
        </li>
      ))}
    </ul>
  );
};

import { useEffect, useState } from 'react';
import Typography from '@material-ui/core/Typography';
import { useApi } from '@backstage/frontend-plugin-api';
import {
  removedZoneLabel,
  zonesOnCluster,
  ZONES_STOP_DEPLOYING,
  type ZoneView,
} from '@infrared-clusters/plugin-infrared-common';
import { infraredApiRef } from '../../api';

interface Placement {
  zones: ZoneView[];
  /** The orgs whose allowlist holds the cluster. */
  orgs: string[];
}

/**
 * The zones that name the cluster and the orgs allowed to use it, read when the dialog opens: what
 * stops, and which allowlists the removal takes the name off (issue 22.7).
 */
export const WhatStops = ({ name }: { name: string }) => {
  const api = useApi(infraredApiRef);
  const [placement, setPlacement] = useState<Placement>();
  const [error, setError] = useState<string>();

  useEffect(() => {
    let live = true;
    Promise.all([api.listZones(), api.listOrganizations()]).then(
      ([zones, orgs]) => {
        if (!live) return;
        setPlacement({
          zones: zonesOnCluster(zones, name),
          orgs: orgs
            .filter(o => o.clusterAllowlist.includes(name))
            .map(o => o.name),
        });
      },
      e => live && setError((e as Error).message),
    );
    return () => {
      live = false;
    };
  }, [api, name]);

  let body;
  if (error) {
    body = (
      <li>
        the zones on {name} could not be read ({error}): {ZONES_STOP_DEPLOYING}
      </li>
    );
  } else if (!placement) {
    body = <li>Reading the zones on {name}…</li>;
  } else {
    body = (
      <>
        {placement.zones.length ? (
          <li>
            {ZONES_STOP_DEPLOYING}:
            <ul aria-label="Zones that stop">
              {placement.zones.map(z => (
                <li key={`${z.product.namespace}/${z.product.name}/${z.zone}`}>
                  {removedZoneLabel(z)} ({z.environment})
                </li>
              ))}
            </ul>
          </li>
        ) : (
          <li>no zone names {name}: nothing stops deploying</li>
        )}
        {placement.orgs.length > 0 && (
          <li>
            {name} is taken off the cluster allowlist of{' '}
            {placement.orgs.map(o => `org ${o}`).join(', ')}: a cluster
            registered later under the name {name} is not allowed until a
            platform admin ticks it again
          </li>
        )}
      </>
    );
  }
  return (
    <>
      <Typography variant="subtitle2">What stops</Typography>
      <ul data-testid="stops">{body}</ul>
    </>
  );
};

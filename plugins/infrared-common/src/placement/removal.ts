/**
 * What removing a cluster stops and changes (issue 22.7): the zones that name it, and the org
 * allowlists it is taken off. Pure: the DELETE answer, its audit event and the remove dialog share
 * it.
 */
import type {
  ClusterAllowlistView as ClusterAllowlistViewBody,
  ClusterRemoval as ClusterRemovalBody,
} from '../schema/openapi';
import type { ZoneView } from './views';

/**
 * Body of DELETE /v1/clusters/\{name\}.
 *
 * @public
 */
export type ClusterRemovalView = ClusterRemovalBody;

/**
 * Body of GET /v1/orgs/\{org\}/cluster-allowlist: the list, and its names no Cluster has.
 *
 * @public
 */
export type ClusterAllowlistView = ClusterAllowlistViewBody;

/**
 * Seed 000's words for what a removal does to zones.
 *
 * @public
 */
export const ZONES_STOP_DEPLOYING = 'Zones on the cluster stop deploying';

/**
 * The zones that name the cluster (`spec.delivery.zones[].cluster`), as GET /v1/zones lists them.
 *
 * @public
 */
export function zonesOnCluster(
  zones: readonly ZoneView[],
  cluster: string,
): ZoneView[] {
  return zones.filter(z => z.clusterSet && z.cluster === cluster);
}

/**
 * `<namespace>/<product> zone <zone>`, how a removal names a zone.
 *
 * @public
 */
export function removedZoneLabel(zone: ZoneView): string {
  return `${zone.product.namespace}/${zone.product.name} zone ${zone.zone}`;
}

/**
 * A removal in words: which zones stop deploying and which allowlists no longer name the cluster.
 *
 * @public
 */
export function clusterRemovalMessage(
  name: string,
  zones: readonly ZoneView[],
  allowlists: readonly string[],
  failed: readonly { org: string; error: string }[] = [],
): string {
  const stop = zones.length
    ? `${ZONES_STOP_DEPLOYING}: ${zones.map(removedZoneLabel).join(', ')}.`
    : `No zone names cluster ${name}.`;
  const taken = allowlists.length
    ? ` Taken off the cluster allowlist of ${allowlists
        .map(o => `org ${o}`)
        .join(
          ', ',
        )}: a cluster registered later under the name ${name} is not allowed until a platform admin ticks it again.`
    : '';
  const left = failed.length
    ? ` Could not take it off the cluster allowlist of ${failed
        .map(f => `org ${f.org} (${f.error})`)
        .join(', ')}: the entry shows as gone; take it off there.`
    : '';
  return `Cluster ${name} removed. ${stop}${taken}${left}`;
}

/**
 * The names on an org's allowlist that no Cluster has: removed (gone), or not registered yet. A
 * zone placed on one Fails (UnknownCluster).
 *
 * @public
 */
export function goneAllowlistEntries(
  allowlist: readonly string[],
  clusters: readonly string[],
): string[] {
  const known = new Set(clusters);
  return allowlist.filter(c => !known.has(c));
}

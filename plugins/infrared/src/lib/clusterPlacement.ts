import type {
  OrganizationView,
  ZoneView,
} from '@infrared-clusters/plugin-infrared-common';

/** What the Clusters page shows of placement for one cluster. */
export interface ClusterPlacement {
  /** The zones that run on the cluster. */
  zones: ZoneView[];
  /** The orgs whose allowlist holds the cluster, by name. */
  orgs: string[];
}

const EMPTY: ClusterPlacement = { zones: [], orgs: [] };

/** Zones and allowed orgs by cluster name. */
export function placementByCluster(
  orgs: readonly OrganizationView[],
  zones: readonly ZoneView[],
): Map<string, ClusterPlacement> {
  const map = new Map<string, ClusterPlacement>();
  const entry = (cluster: string) => {
    let e = map.get(cluster);
    if (!e) {
      e = { zones: [], orgs: [] };
      map.set(cluster, e);
    }
    return e;
  };
  for (const zone of zones) entry(zone.cluster).zones.push(zone);
  for (const org of orgs) {
    for (const cluster of org.clusterAllowlist)
      entry(cluster).orgs.push(org.name);
  }
  for (const e of map.values()) e.orgs.sort();
  return map;
}

/** The placement of one cluster; empty when nothing is placed on or allowed for it. */
export function placementOf(
  map: ReadonlyMap<string, ClusterPlacement> | undefined,
  cluster: string,
): ClusterPlacement {
  return map?.get(cluster) ?? EMPTY;
}

/** `product/zone (environment)`, as the table lists a zone. */
export function zoneLabel(zone: ZoneView): string {
  return `${zone.product.name}/${zone.zone} (${zone.environment})`;
}

/** The org's allowlist with the cluster added or taken out, sorted. */
export function toggledAllowlist(
  org: Pick<OrganizationView, 'clusterAllowlist'>,
  cluster: string,
  allowed: boolean,
): string[] {
  const set = new Set(org.clusterAllowlist);
  if (allowed) set.add(cluster);
  else set.delete(cluster);
  return [...set].sort();
}

/**
 * Zones of different Products that would share an Argo CD Application, an Application file or a
 * namespace. The zone Application is `product-<zone>` in namespace argocd of the one management
 * cluster, whatever cluster the zone runs on, and the zone's namespace is its name: so a zone name
 * belongs to one Product per management cluster, and an Application file to one zone. Pure: the
 * gate and the placement API share it.
 */
import { zoneApplicationName, zoneApplicationPath } from './paths';
import type { ProductResource, ProductZone } from './types';

/**
 * The Product a zone Application was written for, from its labels.
 *
 * @public
 */
export interface ZoneApplicationHolder {
  namespace: string;
  name: string;
}

/**
 * What a zone shares with a zone of another Product, and which Product keeps it.
 *
 * @public
 */
export interface ZoneCollision {
  /** The zone name (Application `product-<zone>` and namespace `<zone>`), or the Application file. */
  on: 'zoneName' | 'applicationPath';
  /** The Product that keeps it. */
  product: { namespace: string; name: string };
  /** That Product's zone. */
  zone: string;
  applicationName: string;
  applicationPath: string;
}

interface Claimant {
  namespace: string;
  name: string;
  zone: ProductZone;
  rank: [number, string, string];
}

/** `<namespace>/<name>/<zone>`, the key of zoneCollisions' answer. */
function key(namespace: string, name: string, zone: string): string {
  return `${namespace}/${name}/${zone}`;
}

/**
 * The key of one zone in the map zoneCollisions returns.
 *
 * @public
 */
export function zoneClaimKey(
  product: Pick<ProductResource, 'metadata'>,
  zone: Pick<ProductZone, 'name'>,
): string {
  return key(
    product.metadata.namespace ?? '',
    product.metadata.name,
    zone.name,
  );
}

function before(a: Claimant, b: Claimant): boolean {
  for (let i = 0; i < a.rank.length; i++) {
    if (a.rank[i] !== b.rank[i]) return a.rank[i] < b.rank[i];
  }
  return false;
}

/**
 * For every zone that collides with another Product's, who keeps what they share. The keeper is
 * the Product whose Application Argo CD already has (`holders`, by Application name), else the
 * older Product (creationTimestamp), else the first by `<namespace>/<name>`; the others' zones are
 * refused, so no Product's Application file is ever overwritten by another's. Zones of one Product
 * are not compared with each other.
 *
 * @public
 */
export function zoneCollisions(
  products: readonly ProductResource[],
  managementCluster: string,
  holders: ReadonlyMap<string, ZoneApplicationHolder> = new Map(),
): Map<string, ZoneCollision> {
  const byClaim = new Map<string, Claimant[]>();
  for (const p of products) {
    const namespace = p.metadata.namespace ?? '';
    const name = p.metadata.name;
    for (const zone of p.spec.delivery?.zones ?? []) {
      const holder = holders.get(zoneApplicationName(zone));
      const holds =
        holder?.namespace === namespace && holder?.name === name ? 0 : 1;
      const claimant: Claimant = {
        namespace,
        name,
        zone,
        rank: [
          holds,
          p.metadata.creationTimestamp ?? '~',
          `${namespace}/${name}`,
        ],
      };
      for (const claim of [
        `zoneName:${zone.name}`,
        `applicationPath:${zoneApplicationPath(zone, managementCluster)}`,
      ]) {
        const list = byClaim.get(claim) ?? [];
        list.push(claimant);
        byClaim.set(claim, list);
      }
    }
  }
  const out = new Map<string, ZoneCollision>();
  for (const [claim, claimants] of byClaim) {
    const keeper = claimants.reduce((a, b) => (before(b, a) ? b : a));
    for (const c of claimants) {
      const k = key(c.namespace, c.name, c.zone.name);
      if (c === keeper || out.has(k)) continue;
      if (c.namespace === keeper.namespace && c.name === keeper.name) continue;
      out.set(k, {
        on: claim.startsWith('zoneName:') ? 'zoneName' : 'applicationPath',
        product: { namespace: keeper.namespace, name: keeper.name },
        zone: keeper.zone.name,
        applicationName: zoneApplicationName(keeper.zone),
        applicationPath: zoneApplicationPath(keeper.zone, managementCluster),
      });
    }
  }
  return out;
}

/**
 * The words for a refused zone: what it shares, with which Product, and what to do.
 *
 * @public
 */
export function zoneCollisionMessage(
  zone: Pick<ProductZone, 'name'>,
  collision: ZoneCollision,
): string {
  const other = `zone ${collision.zone} of Product ${collision.product.namespace}/${collision.product.name}`;
  if (collision.on === 'zoneName') {
    return `zone ${zone.name} is taken by ${other}: its Argo CD Application ${collision.applicationName} (file ${collision.applicationPath}) and its namespace ${zone.name} are that Product's, and zone names are unique across Products on one management cluster; rename this zone`;
  }
  return `zone ${zone.name}'s Application file ${collision.applicationPath} is ${other}'s; set another applicationPath on this zone`;
}

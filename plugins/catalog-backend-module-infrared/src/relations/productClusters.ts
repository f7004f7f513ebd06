import {
  zoneTargetCluster,
  type ProductResource,
} from '@infrared-clusters/plugin-infrared-common';
import type { PlacementKubeApi } from '@infrared-clusters/infrared-kube';

/** The Clusters a Product's zones run on, each once, sorted (a zone naming none: the management cluster). */
export function productClusterNames(
  product: Pick<ProductResource, 'spec'>,
  managementCluster: string,
): string[] {
  const zones = product.spec.delivery?.zones ?? [];
  return [
    ...new Set(zones.map(zone => zoneTargetCluster(zone, managementCluster))),
  ].sort();
}

/**
 * Options of {@link ProductClusters}.
 *
 * @public
 */
export interface ProductClustersOptions {
  kube: Pick<PlacementKubeApi, 'listProducts'>;
  managementCluster: string;
  /** How long one LIST of the Products answers for. Default 10 s. */
  ttlMs?: number;
  clock?: () => number;
}

/**
 * Which Clusters each Product places zones on, from one LIST of the Products shared by every
 * entity the catalog processes within `ttlMs` (a processing round asks for many Products at once).
 *
 * @public
 */
export class ProductClusters {
  private listed?: { at: number; byRef: Promise<Map<string, string[]>> };

  constructor(private readonly options: ProductClustersOptions) {}

  /** The Clusters of Product `<namespace>/<name>`; none when there is no such Product. */
  async of(namespace: string, name: string): Promise<string[]> {
    const byRef = await this.current();
    return byRef.get(`${namespace}/${name}`) ?? [];
  }

  private current(): Promise<Map<string, string[]>> {
    const now = (this.options.clock ?? Date.now)();
    const ttl = this.options.ttlMs ?? 10_000;
    if (!this.listed || now - this.listed.at >= ttl) {
      const byRef = this.list();
      this.listed = { at: now, byRef };
      // a failed LIST is not kept: the next entity asks again
      byRef.catch(() => {
        if (this.listed?.byRef === byRef) this.listed = undefined;
      });
    }
    return this.listed.byRef;
  }

  private async list(): Promise<Map<string, string[]>> {
    const products = await this.options.kube.listProducts();
    return new Map(
      products.map(product => [
        `${product.metadata.namespace}/${product.metadata.name}`,
        productClusterNames(product, this.options.managementCluster),
      ]),
    );
  }
}

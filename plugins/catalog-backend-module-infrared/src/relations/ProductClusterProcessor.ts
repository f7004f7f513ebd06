import {
  getCompoundEntityRef,
  RELATION_DEPENDENCY_OF,
  RELATION_DEPENDS_ON,
  type Entity,
} from '@backstage/catalog-model';
import {
  processingResult,
  type CatalogProcessor,
  type CatalogProcessorEmit,
} from '@backstage/plugin-catalog-node';
import type { LocationSpec } from '@backstage/plugin-catalog-common';
import {
  parseProductRef,
  PRODUCT_ANNOTATION,
} from '@infrared-clusters/plugin-infrared-common';
import { CLUSTER_ENTITY_NAMESPACE } from '../entities';
import type { ProductClusters } from './productClusters';

/**
 * The entity of a Product (annotation `infrared.darkshift.io/product: <namespace>/<name>`, the one
 * the zone-placement card reads) `dependsOn` the Resource of each Cluster the Product places a zone
 * on, and that Resource is its `dependencyOf`.
 *
 * @public
 */
export class ProductClusterProcessor implements CatalogProcessor {
  constructor(private readonly products: Pick<ProductClusters, 'of'>) {}

  getProcessorName(): string {
    return 'InfraredProductClusterProcessor';
  }

  async postProcessEntity(
    entity: Entity,
    _location: LocationSpec,
    emit: CatalogProcessorEmit,
  ): Promise<Entity> {
    const value = entity.metadata.annotations?.[PRODUCT_ANNOTATION];
    if (value === undefined) return entity;
    const ref = parseProductRef(value);
    // a malformed annotation is the card's to report, with the same words
    if ('error' in ref) return entity;
    const self = getCompoundEntityRef(entity);
    for (const cluster of await this.products.of(ref.namespace, ref.name)) {
      const resource = {
        kind: 'Resource',
        namespace: CLUSTER_ENTITY_NAMESPACE,
        name: cluster,
      };
      emit(
        processingResult.relation({
          source: self,
          type: RELATION_DEPENDS_ON,
          target: resource,
        }),
      );
      emit(
        processingResult.relation({
          source: resource,
          type: RELATION_DEPENDENCY_OF,
          target: self,
        }),
      );
    }
    return entity;
  }
}

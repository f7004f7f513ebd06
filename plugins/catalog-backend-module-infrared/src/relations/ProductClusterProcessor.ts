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
  KUBERNETES_ANNOTATION,
  KUBERNETES_LABEL_SELECTOR_QUERY_ANNOTATION,
} from '@backstage/plugin-kubernetes-common';
import {
  parseProductRef,
  PRODUCT_ANNOTATION,
} from '@infrared-clusters/plugin-infrared-common';
import { CLUSTER_ENTITY_NAMESPACE } from '../entities';
import type { ProductClusters } from './productClusters';

/**
 * The label selector of the objects of a Product's zones, as Infrared's release gate writes them
 * (labels `app.kubernetes.io/managed-by: infrared` and `infrared.darkshift.io/product: <name>`).
 */
export function productObjectsSelector(productName: string): string {
  return `app.kubernetes.io/managed-by=infrared,${PRODUCT_ANNOTATION}=${productName}`;
}

/**
 * The entity of a Product (annotation `infrared.darkshift.io/product: <namespace>/<name>`, the one
 * the zone-placement card reads) `dependsOn` the Resource of each Cluster the Product places a zone
 * on, and that Resource is its `dependencyOf`. Its Kubernetes tab shows the objects of its zones:
 * the processor gives it the Kubernetes plugin's `backstage.io/kubernetes-label-selector` for them,
 * unless the entity names its own objects (a kubernetes-id or label-selector annotation).
 *
 * @public
 */
export class ProductClusterProcessor implements CatalogProcessor {
  constructor(private readonly products: Pick<ProductClusters, 'of'>) {}

  getProcessorName(): string {
    return 'InfraredProductClusterProcessor';
  }

  async preProcessEntity(entity: Entity): Promise<Entity> {
    const annotations = entity.metadata.annotations ?? {};
    const value = annotations[PRODUCT_ANNOTATION];
    if (
      value === undefined ||
      annotations[KUBERNETES_ANNOTATION] ||
      annotations[KUBERNETES_LABEL_SELECTOR_QUERY_ANNOTATION]
    ) {
      return entity;
    }
    const ref = parseProductRef(value);
    if ('error' in ref) return entity;
    return {
      ...entity,
      metadata: {
        ...entity.metadata,
        annotations: {
          ...annotations,
          [KUBERNETES_LABEL_SELECTOR_QUERY_ANNOTATION]: productObjectsSelector(
            ref.name,
          ),
        },
      },
    };
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

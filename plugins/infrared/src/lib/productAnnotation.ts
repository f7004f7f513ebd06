import { PRODUCT_ANNOTATION } from '@infrared-clusters/plugin-infrared-common';

/**
 * Whether a catalog entity names a Product (annotation `infrared.darkshift.io/product`), where
 * the zone-placement card shows. Kept out of the card's module, so the filter does not load it.
 *
 * @public
 */
export function isProductPlacementAvailable(entity: {
  metadata: { annotations?: Record<string, string> };
}): boolean {
  return Boolean(entity.metadata.annotations?.[PRODUCT_ANNOTATION]);
}

import {
  createApiFactory,
  createComponentExtension,
  createPlugin,
  createRoutableExtension,
  createRouteRef,
  discoveryApiRef,
  fetchApiRef,
} from '@backstage/core-plugin-api';
import { InfraredApiClient } from '@infrared-clusters/plugin-infrared-common';
import { argoCdApiFactory, infraredApiRef } from './api';

const legacyRootRouteRef = createRouteRef({ id: 'infrared' });

/**
 * The Infrared frontend plugin for apps on the legacy frontend system.
 *
 * @public
 */
export const infraredPlugin = createPlugin({
  id: 'infrared',
  apis: [
    createApiFactory({
      api: infraredApiRef,
      deps: { discoveryApi: discoveryApiRef, fetchApi: fetchApiRef },
      factory: ({ discoveryApi, fetchApi }) =>
        new InfraredApiClient({ discoveryApi, fetchApi }),
    }),
    argoCdApiFactory,
  ],
  routes: { root: legacyRootRouteRef },
});

/**
 * The Clusters page, for a `<Route path="/clusters" element={<InfraredClustersPage />} />`.
 *
 * @public
 */
export const InfraredClustersPage = infraredPlugin.provide(
  createRoutableExtension({
    name: 'InfraredClustersPage',
    component: () =>
      import('./components/ClustersPage').then(m => m.ClustersPage),
    mountPoint: legacyRootRouteRef,
  }),
);

/**
 * The Product zone-placement card for an entity page, e.g.
 * `<EntitySwitch.Case if={isProductPlacementAvailable}><EntityProductPlacementCard /></EntitySwitch.Case>`.
 *
 * @public
 */
export const EntityProductPlacementCard = infraredPlugin.provide(
  createComponentExtension({
    name: 'EntityProductPlacementCard',
    component: {
      lazy: () =>
        import('./components/ProductPlacementCard').then(
          m => m.ProductPlacementCard,
        ),
    },
  }),
);

export { isProductPlacementAvailable } from './lib/productAnnotation';

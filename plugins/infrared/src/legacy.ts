import {
  createPlugin,
  createRoutableExtension,
  createRouteRef,
} from '@backstage/core-plugin-api';

const legacyRootRouteRef = createRouteRef({ id: 'infrared' });

/**
 * The Infrared frontend plugin for apps on the legacy frontend system.
 *
 * @public
 */
export const infraredPlugin = createPlugin({
  id: 'infrared',
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

/**
 * Frontend plugin of Infrared clusters. Apps on the new frontend system import the
 * default export of `@infrared-clusters/plugin-infrared/alpha`; apps on the legacy system use
 * the exports below.
 *
 * @packageDocumentation
 */
export {
  infraredPlugin,
  InfraredClustersPage,
  EntityProductPlacementCard,
  isProductPlacementAvailable,
} from './legacy';
export { argoCdApiRef, infraredApiRef } from './api';
export type { ClustersPageProps } from './components/ClustersPage';
export type {
  ArgoCdApi,
  ArgoCdCluster,
  ArgoCdConnectionState,
} from './argocd/types';

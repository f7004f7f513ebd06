import {
  ApiBlueprint,
  createFrontendPlugin,
  PageBlueprint,
} from '@backstage/frontend-plugin-api';
import { EntityCardBlueprint } from '@backstage/plugin-catalog-react/alpha';
import StorageIcon from '@material-ui/icons/Storage';
import { argoCdApiFactory, infraredApiFactory } from './api';
import { ClustersPage } from './components/ClustersPage';
import { ProductPlacementCard } from './components/ProductPlacementCard';
import { isProductPlacementAvailable } from './lib/productAnnotation';
import { rootRouteRef } from './routes';

/**
 * The typed client of the Infrared backend (`InfraredApiClient` on discovery + fetch).
 *
 * @alpha
 */
export const infraredApi = ApiBlueprint.make({
  params: defineParams => defineParams(infraredApiFactory),
});

/**
 * Argo CD's API through Backstage's proxy, for the panel's "Argo CD sees this cluster" row; it asks
 * nothing unless `infrared.argocd.proxyPath` names the proxy endpoint.
 *
 * @alpha
 */
export const argoCdApi = ApiBlueprint.make({
  name: 'argocd',
  params: defineParams => defineParams(argoCdApiFactory),
});

/**
 * The Clusters page and its nav item ("Clusters").
 *
 * @alpha
 */
export const clustersPage = PageBlueprint.make({
  params: {
    path: '/clusters',
    title: 'Clusters',
    icon: <StorageIcon />,
    routeRef: rootRouteRef,
    noHeader: true,
    // Not a lazy chunk: the page is the plugin, and a cold load would otherwise wait for one more
    // round trip after sign-in before it asks for the list (bench/ui).
    loader: async () => <ClustersPage />,
  },
});

/**
 * The Product zone-placement card, on catalog entities annotated
 * `infrared.darkshift.io/product: <namespace>/<name>`.
 *
 * @alpha
 */
export const productPlacementCard = EntityCardBlueprint.make({
  name: 'product-placement',
  params: {
    filter: entity => isProductPlacementAvailable(entity),
    // Not a lazy chunk: on a cold entity page the card would otherwise wait for one more round
    // trip before it asks for the placement (bench/placement card.js).
    loader: async () => <ProductPlacementCard />,
  },
});

/**
 * The Infrared frontend plugin for apps on the new frontend system.
 *
 * @alpha
 */
export default createFrontendPlugin({
  pluginId: 'infrared',
  title: 'Clusters',
  icon: <StorageIcon />,
  routes: { root: rootRouteRef },
  extensions: [infraredApi, argoCdApi, clustersPage, productPlacementCard],
});

export { argoCdApiRef, infraredApiRef } from './api';
export type {
  ArgoCdApi,
  ArgoCdCluster,
  ArgoCdConnectionState,
} from './argocd/types';

export { infraredScaffolderFieldsModule } from './modules/kubeconfigField';
export { infraredKubernetesAuthModule } from './modules/kubernetesAuth';

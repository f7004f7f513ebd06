import {
  ApiBlueprint,
  createFrontendPlugin,
  PageBlueprint,
} from '@backstage/frontend-plugin-api';
import StorageIcon from '@material-ui/icons/Storage';
import { infraredApiFactory } from './api';
import { rootRouteRef } from './routes';

/** The typed client of the Infrared backend (`InfraredApiClient` on discovery + fetch). */
export const infraredApi = ApiBlueprint.make({
  params: defineParams => defineParams(infraredApiFactory),
});

/** The Clusters page and its nav item ("Clusters"). */
export const clustersPage = PageBlueprint.make({
  params: {
    path: '/clusters',
    title: 'Clusters',
    icon: <StorageIcon />,
    routeRef: rootRouteRef,
    noHeader: true,
    loader: () =>
      import('./components/ClustersPage').then(m => <m.ClustersPage />),
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
  extensions: [infraredApi, clustersPage],
});

export { infraredApiRef } from './api';

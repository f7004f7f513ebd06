import type {
  AuthService,
  BackstageCredentials,
  DiscoveryService,
} from '@backstage/backend-plugin-api';
import {
  INFRARED_PLUGIN_ID,
  InfraredApiClient,
  type InfraredApi,
} from '@infrared-clusters/plugin-infrared-common';

/**
 * What the actions ask of the Infrared REST API.
 *
 * @public
 */
export type ClusterActionsApi = Pick<
  InfraredApi,
  'registerCluster' | 'getCluster' | 'listClusterTemplates'
>;

/**
 * The Infrared REST API as the given caller: every request carries a token on their behalf.
 *
 * @public
 */
export type InfraredApiFor = (
  credentials: BackstageCredentials,
) => ClusterActionsApi;

/**
 * The typed client of -common (the one the Clusters page uses) on the backend's discovery, with a
 * plugin request token made on behalf of `credentials` for each request. So the backend plugin's
 * router authenticates, authorizes and validates a template's request exactly as the page's: the
 * permission decision is about the template's runner, not about the scaffolder.
 *
 * @public
 */
export function infraredApiFor(options: {
  auth: AuthService;
  discovery: DiscoveryService;
}): InfraredApiFor {
  const { auth, discovery } = options;
  return credentials =>
    new InfraredApiClient({
      discoveryApi: discovery,
      fetchApi: {
        async fetch(input, init) {
          const { token } = await auth.getPluginRequestToken({
            onBehalfOf: credentials,
            targetPluginId: INFRARED_PLUGIN_ID,
          });
          const headers = new Headers(init?.headers);
          headers.set('Authorization', `Bearer ${token}`);
          return fetch(input, { ...init, headers });
        },
      },
    });
}

import { mockApis, renderInTestApp } from '@backstage/frontend-test-utils';
import { AuthorizeResult } from '@backstage/plugin-permission-common';
import { InfraredApiClient } from '@infrared-clusters/plugin-infrared-common';
import { argoCdApiRef, infraredApiRef } from '../api';
import { ArgoCdClient } from '../argocd/ArgoCdClient';
import { ClustersPage } from '../components/ClustersPage';

/**
 * Renders the Clusters page on the real clients, against whatever msw serves at BASE (and at
 * `http://backstage.test/api/proxy<argoCdProxyPath>` when that option names Argo CD's proxy path).
 */
export function renderPage(
  options: {
    allow?: boolean;
    pollIntervalMs?: number;
    argoCdProxyPath?: string;
    /** The URL the app opens at; the page is mounted at /clusters as the app mounts it. */
    at?: string;
  } = {},
) {
  const discoveryApi = mockApis.discovery({ baseUrl: 'http://backstage.test' });
  const fetchApi = {
    fetch: (...args: Parameters<typeof fetch>) => globalThis.fetch(...args),
  };
  const client = new InfraredApiClient({ discoveryApi, fetchApi });
  const argoCd = new ArgoCdClient({
    discoveryApi,
    fetchApi,
    configApi: mockApis.config({
      data: options.argoCdProxyPath
        ? { infrared: { argocd: { proxyPath: options.argoCdProxyPath } } }
        : {},
    }),
  });
  return renderInTestApp(
    <ClustersPage pollIntervalMs={options.pollIntervalMs ?? 60_000} />,
    {
      mountPath: '/clusters',
      initialRouteEntries: [options.at ?? '/clusters'],
      apis: [
        [infraredApiRef, client],
        [argoCdApiRef, argoCd],
        mockApis.permission({
          authorize:
            options.allow === false
              ? AuthorizeResult.DENY
              : AuthorizeResult.ALLOW,
        }),
      ],
    },
  );
}

import { mockApis, renderInTestApp } from '@backstage/frontend-test-utils';
import { AuthorizeResult } from '@backstage/plugin-permission-common';
import { InfraredApiClient } from '@infrared-clusters/plugin-infrared-common';
import { infraredApiRef } from '../api';
import { ClustersPage } from '../components/ClustersPage';

/** Renders the Clusters page on the real client, against whatever msw serves at BASE. */
export function renderPage(
  options: { allow?: boolean; pollIntervalMs?: number } = {},
) {
  const discoveryApi = mockApis.discovery({ baseUrl: 'http://backstage.test' });
  const client = new InfraredApiClient({
    discoveryApi,
    fetchApi: { fetch: (...args) => globalThis.fetch(...args) },
  });
  return renderInTestApp(
    <ClustersPage pollIntervalMs={options.pollIntervalMs ?? 60_000} />,
    {
      apis: [
        [infraredApiRef, client],
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

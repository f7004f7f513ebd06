import { mockCredentials, mockServices } from '@backstage/backend-test-utils';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { infraredApiFor } from './infraredApi';

/** A loopback server answering as the Infrared API would, recording each request's token. */
async function recordingServer() {
  const seen: { method?: string; url?: string; authorization?: string }[] = [];
  const server = http.createServer((req, res) => {
    seen.push({
      method: req.method,
      url: req.url,
      authorization: req.headers.authorization,
    });
    res.setHeader('Content-Type', 'application/json');
    if (req.url === '/api/infrared/v1/clusters/edge-demo') {
      res.end(
        JSON.stringify({
          name: 'edge-demo',
          type: 'workload',
          connection: 'kubeconfig',
          conditions: [],
          createdAt: '',
        }),
      );
      return;
    }
    res.statusCode = 403;
    res.end(
      JSON.stringify({
        error: {
          name: 'NotAllowedError',
          message: 'only platform admins may register clusters',
        },
      }),
    );
  });
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, seen, baseUrl: `http://127.0.0.1:${port}/api/infrared` };
}

describe('infraredApiFor', () => {
  it("sends each request with a token on the runner's behalf, for the infrared plugin", async () => {
    const { server, seen, baseUrl } = await recordingServer();
    try {
      const discovery = mockServices.discovery.mock({
        getBaseUrl: async id => baseUrl.replace('infrared', id),
      });
      const api = infraredApiFor({
        auth: mockServices.auth({ pluginId: 'scaffolder' }),
        discovery,
      })(mockCredentials.user('user:default/runner'));

      const view = await api.getCluster('edge-demo');
      expect(view.name).toBe('edge-demo');
      await expect(
        api.registerCluster({ name: 'x', inCluster: true }),
      ).rejects.toThrow(
        'Request failed with 403 Forbidden: only platform admins may register clusters',
      );

      expect(seen.map(r => `${r.method} ${r.url}`)).toEqual([
        'GET /api/infrared/v1/clusters/edge-demo',
        'POST /api/infrared/v1/clusters',
      ]);
      // the infrared plugin's auth reads the token as the runner, not as the scaffolder
      const infraredAuth = mockServices.auth({ pluginId: 'infrared' });
      for (const { authorization } of seen) {
        const token = authorization!.replace(/^Bearer /, '');
        const credentials = await infraredAuth.authenticate(token);
        expect(credentials.principal).toEqual({
          type: 'user',
          userEntityRef: 'user:default/runner',
        });
      }
    } finally {
      server.close();
    }
  });
});

import {
  mockCredentials,
  mockServices,
  startTestBackend,
} from '@backstage/backend-test-utils';
import proxyPlugin from '@backstage/plugin-proxy-backend';
import { productionProxyConfig, startFakeArgoCd } from './__testUtils__/argoCd';

const ARGO_TOKEN = 'argocd-token-0123456789abcdef';

/**
 * The Argo CD endpoint of app-config.production.yaml on the real proxy backend, in front of a
 * loopback fake that records what reaches it: only a GET of the clusters API passes, with the
 * endpoint's token and never the caller's.
 */
describe("app-config.production.yaml's Argo CD proxy endpoint", () => {
  let argo: Awaited<ReturnType<typeof startFakeArgoCd>>;
  beforeEach(async () => {
    argo = await startFakeArgoCd();
  });
  afterEach(() => argo.stop());

  async function start(env: Record<string, string>) {
    const backend = await startTestBackend({
      features: [
        proxyPlugin,
        mockServices.rootConfig.factory({
          data: { proxy: (await productionProxyConfig(env)) as any },
        }),
        mockServices.httpAuth.factory({
          defaultCredentials: mockCredentials.none(),
        }),
      ],
    });
    const base = `http://127.0.0.1:${backend.server.port()}/api/proxy`;
    const send = (method: string, url: string, token?: string) =>
      fetch(`${base}${url}`, {
        method,
        headers: token ? { authorization: token } : {},
      }).then(r => r.status);
    return { backend, send };
  }

  it("lets a signed-in user's GET of the clusters API through with the endpoint's token, and nothing else", async () => {
    const { backend, send } = await start({
      ARGOCD_URL: argo.url,
      ARGOCD_TOKEN: ARGO_TOKEN,
    });
    const user = mockCredentials.user.header();
    expect(await send('GET', '/argocd/api/v1/clusters', user)).toBe(200);
    expect(await send('GET', '/argocd/api/v1/clusters?x=1', user)).toBe(200);
    expect(argo.requests).toEqual([
      {
        method: 'GET',
        path: '/api/v1/clusters',
        authorization: `Bearer ${ARGO_TOKEN}`,
      },
      {
        method: 'GET',
        path: '/api/v1/clusters?x=1',
        authorization: `Bearer ${ARGO_TOKEN}`,
      },
    ]);
    argo.requests.length = 0;

    const refused = {
      anonymous: await send('GET', '/argocd/api/v1/clusters'),
      delete: await send(
        'DELETE',
        '/argocd/api/v1/clusters/https%3A%2F%2Fx',
        user,
      ),
      post: await send('POST', '/argocd/api/v1/clusters', user),
      put: await send('PUT', '/argocd/api/v1/clusters/x', user),
      applications: await send('GET', '/argocd/api/v1/applications', user),
      session: await send('POST', '/argocd/api/v1/session', user),
      settings: await send('GET', '/argocd/api/v1/settings', user),
      dotdot: await send(
        'GET',
        '/argocd/api/v1/clusters/../applications',
        user,
      ),
    };
    expect(refused).toEqual({
      anonymous: 401,
      delete: 404,
      post: 404,
      put: 404,
      applications: 404,
      session: 404,
      settings: 404,
      dotdot: 404,
    });
    expect(argo.requests).toEqual([]);
    await backend.stop();
  });

  it('starts without ARGOCD_URL, leaving the endpoint out', async () => {
    const { backend, send } = await start({});
    expect(
      await send(
        'GET',
        '/argocd/api/v1/clusters',
        mockCredentials.user.header(),
      ),
    ).toBe(404);
    expect(argo.requests).toEqual([]);
    await backend.stop();
  });
});

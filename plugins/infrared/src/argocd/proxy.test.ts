/**
 * @jest-environment node
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  coreServices,
  createServiceFactory,
  LoggerService,
} from '@backstage/backend-plugin-api';
import {
  mockCredentials,
  mockServices,
  startTestBackend,
  TestBackend,
} from '@backstage/backend-test-utils';
import { ConfigReader } from '@backstage/config';
import {
  ConfigSources,
  FileConfigSource,
  loadConfigSchema,
} from '@backstage/config-loader';
import { parse } from 'yaml';
import { argoCdConnectionOf } from './argoCdConnection';
import { ArgoCdClient } from './ArgoCdClient';
import { argoCluster, FakeArgoCd } from './__testUtils__/fakeArgoCd';
import { startFakeArgoCdServer } from './__testUtils__/transports';

jest.setTimeout(60_000);

const README = join(__dirname, '..', '..', 'README.md');
// An Argo CD API token is a JWT; this one is shaped like one so redaction has to find it by shape.
const ARGOCD_TOKEN =
  'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJiYWNrc3RhZ2U6YXBpS2V5In0.ZmFrZS1hcmdvY2Qtc2lnbmF0dXJl';
const EDGE_SERVER = 'https://203.0.113.10:6443';

/** The proxy block of the plugin's README, read as Backstage reads app-config (with `${VAR}` substitution). */
async function readmeConfig(env: Record<string, string>) {
  const source = FileConfigSource.create({
    path: README,
    watch: false,
    substitutionFunc: async name => env[name],
    parser: async ({ contents }) => {
      const block =
        /<!-- argocd-proxy-config -->\s*```yaml\n([\s\S]*?)```\s*<!-- \/argocd-proxy-config -->/.exec(
          contents,
        );
      if (!block) throw new Error('README has no argocd-proxy-config block');
      return { result: parse(block[1]) };
    },
  });
  const config = await ConfigSources.toConfig(source);
  const data = config.get();
  config.close();
  return data as any;
}

function recordingLogger(lines: string[]): LoggerService {
  const log = (level: string) => (message: string, meta?: Error | object) =>
    lines.push(`${level} ${message} ${JSON.stringify(meta ?? {})}`);
  const logger: LoggerService = {
    error: log('error'),
    warn: log('warn'),
    info: log('info'),
    debug: log('debug'),
    child: () => logger,
  };
  return logger;
}

describe("Argo CD's API through Backstage's proxy, as the README configures it", () => {
  let argo: FakeArgoCd;
  let argoUrl: string;
  let stopArgo: () => Promise<void>;
  let backend: TestBackend | undefined;
  let logs: string[];

  beforeEach(async () => {
    argo = new FakeArgoCd(ARGOCD_TOKEN);
    const started = await startFakeArgoCdServer(argo);
    stopArgo = started.stop;
    logs = [];
    argoUrl = started.url;
  });
  afterEach(async () => {
    await backend?.stop();
    backend = undefined;
    await stopArgo();
    if (argo.violations.length) {
      throw new Error(`Argo CD's API refuses:\n${argo.violations.join('\n')}`);
    }
    if (logs.join('\n').includes(ARGOCD_TOKEN)) {
      throw new Error('the backend logged the Argo CD token');
    }
  });

  async function startProxy(env: Record<string, string>) {
    const data = await readmeConfig(env);
    backend = await startTestBackend({
      features: [
        import('@backstage/plugin-proxy-backend'),
        mockServices.rootConfig.factory({ data }),
        // A request without a token is nobody (the test backend's default is a user).
        mockServices.httpAuth.factory({
          defaultCredentials: mockCredentials.none(),
        }),
        createServiceFactory({
          service: coreServices.rootLogger,
          deps: {},
          factory: () => recordingLogger(logs),
        }),
      ],
    });
    const base = `http://127.0.0.1:${backend.server.port()}`;
    return {
      base,
      client: (authorization?: string, proxyPath = '/argocd/api') =>
        new ArgoCdClient({
          discoveryApi: { getBaseUrl: async id => `${base}/api/${id}` },
          fetchApi: {
            fetch: (input, init) =>
              fetch(input, {
                ...init,
                headers: {
                  ...(init?.headers as Record<string, string>),
                  ...(authorization ? { authorization } : {}),
                },
              }),
          },
          configApi: new ConfigReader({
            infrared: { argocd: { proxyPath } },
          }),
        }),
    };
  }

  it("lists Argo CD's clusters with the configured token, never the user's Backstage token, and the answer is Argo CD's schema", async () => {
    argo.clusters = [
      argoCluster('edge-1', EDGE_SERVER, {
        status: 'Successful',
        message: '',
        attemptedAt: '2026-11-30T21:00:00Z',
      }),
    ];
    const { client } = await startProxy({
      ARGOCD_URL: argoUrl,
      ARGOCD_TOKEN,
    });
    const userHeader = mockCredentials.user.header();
    const items = await client(userHeader).listClusters();

    expect(
      argoCdConnectionOf({ name: 'edge-1', argoServer: EDGE_SERVER }, items),
    ).toEqual({ status: 'Successful', attemptedAt: '2026-11-30T21:00:00Z' });
    expect(argo.requests).toEqual([
      {
        method: 'GET',
        path: '/api/v1/clusters',
        operationId: 'ClusterService_List',
        authorization: `Bearer ${ARGOCD_TOKEN}`,
        status: 200,
      },
    ]);
  });

  it('refuses callers without a Backstage token before Argo CD is asked, and says who refused', async () => {
    const { client } = await startProxy({
      ARGOCD_URL: argoUrl,
      ARGOCD_TOKEN,
    });
    const error = await client()
      .listClusters()
      .catch(e => e);
    expect(error).toMatchObject({ status: 401 });
    expect(error.message).toMatch(/^Backstage's proxy answered 401: /);
    expect(argo.requests).toEqual([]);
  });

  it("says so when the frontend's proxy path has no endpoint on the backend, or Argo CD cannot be reached", async () => {
    const { client } = await startProxy({ ARGOCD_URL: argoUrl, ARGOCD_TOKEN });
    const user = mockCredentials.user.header();
    const missing = await client(user, '/argo/api')
      .listClusters()
      .catch(e => e);
    expect(missing.message).toBe(
      "The proxy to Argo CD answered 404: Not Found (is proxy.endpoints['/argo/api/v1/clusters'] configured on the backend?)",
    );

    await stopArgo();
    stopArgo = async () => {};
    const down = await client(user)
      .listClusters()
      .catch(e => e);
    // http-proxy-middleware's answer for a refused connection: 504 and a text, no JSON
    expect(down).toMatchObject({ status: 504 });
    expect(down.message).toBe(
      "The proxy to Argo CD answered 504: it could not reach Argo CD's API (is argocd-server running, at the target of proxy.endpoints['/argocd/api/v1/clusters']?)",
    );
    expect(argo.requests).toEqual([]);
  });

  it("lets only GET through: a write never reaches Argo CD with the proxy's token", async () => {
    const { base } = await startProxy({ ARGOCD_URL: argoUrl, ARGOCD_TOKEN });
    const response = await fetch(`${base}/api/proxy/argocd/api/v1/clusters`, {
      method: 'POST',
      headers: {
        authorization: mockCredentials.user.header(),
        'content-type': 'application/json',
      },
      body: JSON.stringify({ server: 'https://evil.test', name: 'evil' }),
    });
    expect(response.status).toBe(404);
    expect(argo.requests).toEqual([]);
  });

  it("gets Argo CD's 401 when the token is missing from the environment, and says so", async () => {
    const { client } = await startProxy({ ARGOCD_URL: argoUrl });
    const error = await client(mockCredentials.user.header())
      .listClusters()
      .catch(e => e);
    expect(error.message).toBe('Argo CD answered 401: no session information');
    expect(argo.requests).toEqual([
      expect.objectContaining({ path: '/api/v1/clusters', status: 401 }),
    ]);
  });

  it("takes a token out of Argo CD's message before it is shown", async () => {
    argo.clusters = [
      argoCluster('edge-1', EDGE_SERVER, {
        status: 'Failed',
        message: `Unable to connect: Get "${EDGE_SERVER}/version": Authorization: Bearer ${ARGOCD_TOKEN} rejected (${ARGOCD_TOKEN})`,
      }),
    ];
    const { client } = await startProxy({ ARGOCD_URL: argoUrl, ARGOCD_TOKEN });
    const items = await client(mockCredentials.user.header()).listClusters();
    const connection = argoCdConnectionOf(
      { name: 'edge-1', argoServer: EDGE_SERVER },
      items,
    );
    expect(connection).toEqual({
      status: 'Failed',
      message: `Unable to connect: Get "${EDGE_SERVER}/version": Authorization: Bearer [redacted] rejected ([redacted])`,
    });
  });

  it('gives the frontend the proxy path and nothing of the endpoint (its token stays on the backend)', async () => {
    const data = await readmeConfig({
      ARGOCD_URL: 'https://argocd.test',
      ARGOCD_TOKEN,
    });
    const schema = await loadConfigSchema({
      dependencies: [
        '@infrared-clusters/plugin-infrared',
        '@backstage/plugin-proxy-backend',
      ],
      excludePackageDependencies: true,
    });
    const frontend = schema.process([{ context: 'README', data }], {
      visibility: ['frontend'],
    });
    expect(frontend.map(c => c.data)).toEqual([
      { infrared: { argocd: { proxyPath: '/argocd/api' } } },
    ]);
    expect(JSON.stringify(readFileSync(README, 'utf8'))).not.toContain(
      ARGOCD_TOKEN,
    );
  });
});

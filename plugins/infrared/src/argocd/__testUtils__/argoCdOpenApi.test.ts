import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ARGOCD_SWAGGER, ArgoCdOpenApi } from './argoCdOpenApi';
import { argoCluster, FakeArgoCd } from './fakeArgoCd';

const TOKEN = 'argocd-api-token-0123456789';

const get = (path: string, query = '', authorization?: string) => ({
  method: 'GET',
  path,
  query: new URLSearchParams(query),
  authorization,
});

describe("Argo CD's vendored API description", () => {
  it('is the file the fixtures README names, byte for byte', () => {
    const readme = readFileSync(
      join(__dirname, '..', '__fixtures__', 'README.md'),
      'utf8',
    );
    const named = /sha256: `([0-9a-f]{64})`/.exec(readme)?.[1];
    const actual = createHash('sha256')
      .update(readFileSync(ARGOCD_SWAGGER))
      .digest('hex');
    expect(actual).toBe(named);
    expect(readme).toMatch(/release: v3\.\d+\.\d+/);
  });

  it('has the connection state where the panel reads it: info.connectionState, and the deprecated top-level copy', () => {
    const api = ArgoCdOpenApi.load();
    const ref = (name: string) => ({ $ref: `#/definitions/${name}` });
    const cluster = api.definition('v1alpha1Cluster').properties;
    expect(cluster.server.type).toBe('string');
    expect(cluster.name.type).toBe('string');
    expect(cluster.connectionState).toEqual(ref('v1alpha1ConnectionState'));
    expect(cluster.info).toEqual(ref('v1alpha1ClusterInfo'));
    expect(
      api.definition('v1alpha1ClusterInfo').properties.connectionState,
    ).toEqual(ref('v1alpha1ConnectionState'));
    expect(
      Object.keys(api.definition('v1alpha1ConnectionState').properties).sort(),
    ).toEqual(['attemptedAt', 'message', 'status']);
  });
});

describe('ArgoCdOpenApi', () => {
  const api = ArgoCdOpenApi.load();

  it("matches GET /api/v1/clusters to ClusterService_List and checks its query against the operation's parameters", () => {
    const ok = api.match(get('/api/v1/clusters', 'server=https%3A%2F%2Fa'));
    expect(ok).toMatchObject({
      operationId: 'ClusterService_List',
      query: { server: ['https://a'] },
      violations: [],
    });
    expect(api.match(get('/api/v1/clusters', 'limit=5'))?.violations).toEqual([
      'GET /api/v1/clusters: query limit is not in the description',
    ]);
    expect(
      api.match({ ...get('/api/v1/clusters'), body: { name: 'x' } })
        ?.violations,
    ).toEqual(['GET /api/v1/clusters: takes no request body']);
    expect(api.match(get('/api/v1/clusterz'))).toBeUndefined();
  });

  it('checks a body against its definition, and a path parameter is required', () => {
    const create = (body: unknown) =>
      api.match({
        method: 'POST',
        path: '/api/v1/clusters',
        query: new URLSearchParams('upsert=maybe'),
        body,
      })!;
    const bad = create({ server: 42, shard: 1.5 });
    expect(bad.operationId).toBe('ClusterService_Create');
    expect(bad.violations.join('\n')).toMatch(
      /query upsert: data must be boolean/,
    );
    expect(bad.violations.join('\n')).toMatch(/data\/server must be string/);
    expect(bad.violations.join('\n')).toMatch(
      /shard must match format "int64"/,
    );
    expect(
      api.match({
        method: 'POST',
        path: '/api/v1/clusters',
        query: new URLSearchParams(),
      })!.violations,
    ).toEqual(['POST /api/v1/clusters: body required']);
    expect(api.match(get('/api/v1/clusters/https%3A%2F%2Fa'))?.params).toEqual({
      'id.value': 'https://a',
    });
  });

  it('refuses an answer with a field the description does not name, or of the wrong type', () => {
    const good = {
      items: [
        argoCluster('a', 'https://a', { status: 'Failed', message: 'm' }),
      ],
    };
    expect(api.checkResponse('ClusterService_List', 200, good)).toEqual([]);
    expect(
      api.checkResponse('ClusterService_List', 200, {
        items: [{ server: 'https://a', conectionState: { status: 'Failed' } }],
      }),
    ).toEqual([
      'GET /api/v1/clusters answer 200: data/items/0 must NOT have additional properties',
    ]);
    expect(
      api.checkResponse('ClusterService_List', 200, {
        items: [
          {
            server: 'https://a',
            info: { connectionState: { attemptedAt: 'yesterday' } },
          },
        ],
      })[0],
    ).toMatch(/attemptedAt must match format "date-time"/);
    expect(
      api.checkResponse('ClusterService_List', 401, { code: '16' })[0],
    ).toMatch(/answer 401: data\/code must be integer/);
  });
});

describe('FakeArgoCd', () => {
  it("answers a request without the bearer token with Argo CD's 401, itself valid", () => {
    const fake = new FakeArgoCd(TOKEN);
    fake.clusters = [argoCluster('a', 'https://a', { status: 'Successful' })];
    for (const authorization of [undefined, `Bearer wrong`, TOKEN]) {
      expect(fake.handle(get('/api/v1/clusters', '', authorization))).toEqual({
        status: 401,
        body: {
          error: 'no session information',
          code: 16,
          message: 'no session information',
        },
      });
    }
    expect(
      ArgoCdOpenApi.load().checkResponse('ClusterService_List', 401, {
        error: 'no session information',
        code: 16,
        message: 'no session information',
      }),
    ).toEqual([]);
    const ok = fake.handle(get('/api/v1/clusters', '', `Bearer ${TOKEN}`));
    expect(ok.status).toBe(200);
    expect((ok.body as any).items).toEqual(fake.clusters);
    expect(fake.violations).toEqual([]);
  });

  it("filters by Argo CD's server and name query parameters", () => {
    const fake = new FakeArgoCd(TOKEN);
    fake.clusters = [
      argoCluster('a', 'https://a'),
      argoCluster('b', 'https://b'),
    ];
    const names = (query: string) =>
      (
        fake.handle(get('/api/v1/clusters', query, `Bearer ${TOKEN}`))
          .body as any
      ).items.map((c: any) => c.name);
    expect(names('server=https://b')).toEqual(['b']);
    expect(names('name=a')).toEqual(['a']);
    expect(names('')).toEqual(['a', 'b']);
  });

  it('records a violation and answers 400 for a request the description refuses, 404 for one it does not have, 501 for one it does not serve', () => {
    const fake = new FakeArgoCd(TOKEN);
    const auth = `Bearer ${TOKEN}`;
    expect(fake.handle(get('/api/v1/clusters', 'page=2', auth)).status).toBe(
      400,
    );
    expect(fake.handle(get('/api/v1/nothing', '', auth)).status).toBe(404);
    expect(fake.handle(get('/api/v1/applications', '', auth)).status).toBe(501);
    expect(fake.violations).toEqual([
      'GET /api/v1/clusters: query page is not in the description',
      "GET /api/v1/nothing: no such operation in Argo CD's API",
      'ApplicationService_List: not served by the fake',
    ]);
  });

  it('checks its own answers: a cluster with a field Argo CD does not send is a violation', () => {
    const fake = new FakeArgoCd(TOKEN);
    fake.clusters = [{ ...argoCluster('a', 'https://a'), token: TOKEN } as any];
    fake.handle(get('/api/v1/clusters', '', `Bearer ${TOKEN}`));
    expect(fake.violations).toEqual([
      'GET /api/v1/clusters answer 200: data/items/0 must NOT have additional properties',
    ]);
  });
});

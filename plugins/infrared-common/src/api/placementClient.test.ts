import { InfraredApiClient, InfraredApiError } from './client';

type Call = { url: string; init?: RequestInit };

function fakeFetch(status: number, body?: unknown) {
  const calls: Call[] = [];
  const fetch = (async (url: string, init?: RequestInit) => {
    calls.push({ url, init });
    return new Response(body === undefined ? null : JSON.stringify(body), {
      status,
    });
  }) as unknown as typeof globalThis.fetch;
  const client = new InfraredApiClient({
    discoveryApi: { getBaseUrl: async id => `http://portal.test/api/${id}` },
    fetchApi: { fetch },
  });
  return { client, calls };
}

const BASE = 'http://portal.test/api/infrared';

describe('InfraredApiClient: placement', () => {
  it('lists organizations', async () => {
    const org = {
      name: 'acme',
      displayName: 'ACME',
      namespace: 'ir-org-acme',
      platform: false,
      clusterAllowlist: ['edge-demo'],
    };
    const { client, calls } = fakeFetch(200, { items: [org] });
    await expect(client.listOrganizations()).resolves.toEqual([org]);
    expect(calls[0].url).toBe(`${BASE}/v1/orgs`);
  });

  it('reads and replaces an allowlist with a PUT of {clusters}', async () => {
    const { client, calls } = fakeFetch(200, {
      clusters: ['a', 'b'],
      gone: ['b'],
    });
    await expect(client.getClusterAllowlist('acme')).resolves.toEqual({
      clusters: ['a', 'b'],
      gone: ['b'],
    });
    await client.replaceClusterAllowlist('acme', ['b', 'a']);
    expect(calls.map(c => [c.init?.method, c.url])).toEqual([
      ['GET', `${BASE}/v1/orgs/acme/cluster-allowlist`],
      ['PUT', `${BASE}/v1/orgs/acme/cluster-allowlist`],
    ]);
    expect(calls[1].init?.body).toBe('{"clusters":["b","a"]}');
    expect(calls[1].init?.headers).toMatchObject({
      'Content-Type': 'application/json',
    });
  });

  it('lists zones', async () => {
    const { client, calls } = fakeFetch(200, { items: [] });
    await expect(client.listZones()).resolves.toEqual([]);
    expect(calls[0].url).toBe(`${BASE}/v1/zones`);
  });

  it("reads a Product's placement and sets a zone's cluster, escaping the path", async () => {
    const placement = { namespace: 'ir-org-acme', name: 'checkout', zones: [] };
    const { client, calls } = fakeFetch(200, placement);
    await expect(
      client.getProductPlacement('ir-org-acme', 'checkout'),
    ).resolves.toEqual(placement);
    await client.setZoneCluster('ir-org-acme', 'check/out', 'prod', '');
    expect(calls.map(c => [c.init?.method, c.url, c.init?.body])).toEqual([
      ['GET', `${BASE}/v1/products/ir-org-acme/checkout/placement`, undefined],
      [
        'PUT',
        `${BASE}/v1/products/ir-org-acme/check%2Fout/zones/prod/cluster`,
        '{"cluster":""}',
      ],
    ]);
  });

  it("throws the server's field errors on a refused allowlist", async () => {
    const { client } = fakeFetch(400, {
      error: {
        name: 'InputError',
        message: 'invalid request: clusters[1]: repeats',
      },
      errors: [{ field: 'clusters[1]', message: 'repeats' }],
    });
    const error = await client
      .replaceClusterAllowlist('acme', ['a', 'a'])
      .catch(e => e);
    expect(error).toBeInstanceOf(InfraredApiError);
    expect(error.status).toBe(400);
    expect(error.fieldErrors).toEqual([
      { field: 'clusters[1]', message: 'repeats' },
    ]);
  });
});

import { InfraredApiClient, InfraredApiError } from './client';

type Call = { url: string; init?: RequestInit };

function fakeFetch(status: number, body?: unknown, statusText = '') {
  const calls: Call[] = [];
  const fetch = (async (url: string, init?: RequestInit) => {
    calls.push({ url, init });
    let text = typeof body === 'string' ? body : JSON.stringify(body);
    if (body === undefined) text = '';
    return new Response(status === 204 ? null : text, { status, statusText });
  }) as unknown as typeof globalThis.fetch;
  const client = new InfraredApiClient({
    discoveryApi: { getBaseUrl: async id => `http://portal.test/api/${id}/` },
    fetchApi: { fetch },
  });
  return { client, calls };
}

const view = {
  name: 'edge',
  type: 'workload',
  connection: 'kubeconfig',
  conditions: [],
  createdAt: 'x',
};

describe('InfraredApiClient', () => {
  it('lists clusters from the plugin base path', async () => {
    const { client, calls } = fakeFetch(200, { items: [view] });
    await expect(client.listClusters()).resolves.toEqual([view]);
    expect(calls[0].url).toBe('http://portal.test/api/infrared/v1/clusters');
    expect(calls[0].init?.method).toBe('GET');
  });

  it('gets one cluster with its name escaped', async () => {
    const { client, calls } = fakeFetch(200, view);
    await expect(client.getCluster('a/b')).resolves.toEqual(view);
    expect(calls[0].url).toBe(
      'http://portal.test/api/infrared/v1/clusters/a%2Fb',
    );
  });

  it('posts a registration as JSON and returns the created cluster', async () => {
    const { client, calls } = fakeFetch(201, view);
    await expect(
      client.registerCluster({ name: 'edge', inCluster: true }),
    ).resolves.toEqual(view);
    expect(calls[0].init).toMatchObject({
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{"name":"edge","inCluster":true}',
    });
  });

  it('removes a cluster, answering the zones that stop and the allowlists it left', async () => {
    const body = {
      name: 'edge',
      zones: [],
      allowlists: ['acme'],
      message: 'm',
    };
    const { client, calls } = fakeFetch(200, body);
    await expect(client.removeCluster('edge')).resolves.toEqual(body);
    expect(calls[0]).toMatchObject({
      url: 'http://portal.test/api/infrared/v1/clusters/edge',
      init: { method: 'DELETE' },
    });
  });

  it('reads health', async () => {
    const { client, calls } = fakeFetch(200, { status: 'ok' });
    await expect(client.health()).resolves.toEqual({ status: 'ok' });
    expect(calls[0].url).toBe('http://portal.test/api/infrared/health');
  });

  it("throws the server's message and status from a Backstage error body", async () => {
    const body = {
      error: {
        name: 'InputError',
        message: 'name is 43 characters long; at most 42 are allowed',
      },
      errors: [
        {
          field: 'name',
          message: 'name is 43 characters long; at most 42 are allowed',
        },
      ],
      response: { statusCode: 400 },
    };
    const { client } = fakeFetch(400, body, 'Bad Request');
    const error = await client
      .registerCluster({ name: 'x', inCluster: true })
      .catch(e => e);
    expect(error).toBeInstanceOf(InfraredApiError);
    expect(error).toMatchObject({
      name: 'ResponseError',
      status: 400,
      statusText: 'Bad Request',
      message:
        'Request failed with 400 Bad Request: name is 43 characters long; at most 42 are allowed',
      fieldErrors: [{ field: 'name', message: expect.any(String) }],
    });
  });

  it.each([
    [
      409,
      { error: { name: 'ConflictError', message: 'cluster edge exists' } },
      'Conflict',
      /409 Conflict: cluster edge exists$/,
    ],
    [404, 'no such route', 'Not Found', /404 Not Found: no such route$/],
    [
      503,
      undefined,
      'Service Unavailable',
      /503 Service Unavailable: Service Unavailable$/,
    ],
  ])('throws on %i', async (status, body, statusText, message) => {
    const { client } = fakeFetch(status, body, statusText);
    const error = await client.getCluster('edge').catch(e => e);
    expect(error).toMatchObject({
      status,
      message: expect.stringMatching(message),
    });
  });
});

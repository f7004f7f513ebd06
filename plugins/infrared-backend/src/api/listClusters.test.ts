import { clusterForRequest } from '@infrared-clusters/plugin-infrared-common';
import { OpenApiCheck } from './__testUtils__/openApiCheck';
import { startHarness, type Harness } from './__testUtils__/harness';

jest.setTimeout(30_000);

const openapi = new OpenApiCheck();

/** GET /v1/clusters's filters, sort and pages (issue 25), each answer checked against openapi.yaml. */
describe('GET /v1/clusters with a query', () => {
  let h: Harness;
  const workload = Array.from(
    { length: 12 },
    (_, i) => `edge-${String(i).padStart(2, '0')}`,
  );

  beforeAll(async () => {
    h = await startHarness({ openapi });
    for (const [i, name] of workload.entries()) {
      await h.api.clusters.create(
        clusterForRequest({
          name,
          inCluster: true,
          region: i % 2 ? 'eu-west-1' : 'us-east-1',
        } as any),
      );
    }
    h.placement.addOrg('acme', {
      clusterAllowlist: ['edge-03', 'edge-04', 'gone'],
    });
  });

  const get = async (query: string) => {
    const res = await h.send('get', `/v1/clusters${query}`);
    return { status: res.status, body: res.body };
  };

  it('answers every cluster without a query, as before, with the total', async () => {
    const { status, body } = await get('');
    expect(status).toBe(200);
    expect(body.items.map((c: any) => c.name)).toEqual(
      expect.arrayContaining(workload),
    );
    expect(body.total).toBe(body.items.length);
    expect(body.continue).toBeUndefined();
  });

  it('pages with limit and continue: every cluster once, in name order', async () => {
    const seen: string[] = [];
    let query = '?limit=5';
    for (let page = 0; page < 10; page++) {
      const { status, body } = await get(query);
      expect(status).toBe(200);
      expect(body.items.length).toBeLessThanOrEqual(5);
      seen.push(...body.items.map((c: any) => c.name));
      if (!body.continue) break;
      query = `?limit=5&continue=${encodeURIComponent(body.continue)}`;
    }
    const all = (await get('')).body.items.map((c: any) => c.name);
    expect(seen).toEqual(all);
  });

  it('filters by text, org allowlist and sorts on the server', async () => {
    const eu = await get('?search=eu-west&sort=name&order=desc&limit=2');
    expect(eu.body.items.map((c: any) => c.name)).toEqual([
      'edge-11',
      'edge-09',
    ]);
    expect(eu.body.total).toBe(6);
    const acme = await get('?org=acme');
    expect(acme.body.items.map((c: any) => c.name)).toEqual([
      'edge-03',
      'edge-04',
    ]);
    expect((await get('?org=nobody')).status).toBe(404);
  });

  it('refuses bad parameters with 400 naming each, and a token of other filters', async () => {
    const bad = await get('?limit=0&sort=secret&token=1');
    expect(bad.status).toBe(400);
    expect(bad.body.error.errors.map((e: any) => e.field)).toEqual([
      'limit',
      'sort',
      'token',
    ]);
    const { body } = await get('?limit=2');
    const other = await get(
      `?limit=2&search=edge&continue=${encodeURIComponent(body.continue)}`,
    );
    expect(other.status).toBe(400);
    expect(other.body.error.errors[0].field).toBe('continue');
  });
});

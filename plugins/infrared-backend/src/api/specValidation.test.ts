import { mockCredentials, mockServices } from '@backstage/backend-test-utils';
import { AuthorizeResult } from '@backstage/plugin-permission-common';
import { startHarness } from './__testUtils__/harness';
import { specFieldErrors } from './specErrors';

jest.setTimeout(60_000);

const noToken = mockServices.httpAuth.factory({
  defaultCredentials: mockCredentials.none(),
});
const denied = mockServices.permissions.factory({
  result: AuthorizeResult.DENY,
});

/**
 * openapi.yaml's request validation runs: a request that breaks it answers 400 with the API's
 * field-error shape and reaches no handler; authorization answers before it.
 */
describe("openapi.yaml's request validation", () => {
  it('refuses what only the spec refuses (an unknown query parameter) with 400 naming it, reaching no handler', async () => {
    const h = await startHarness();
    h.placement.addOrg('acme', { clusterAllowlist: ['old-one'] });

    const list = await h.send('get', '/v1/orgs?bogus=1');
    expect(list.status).toBe(400);
    expect(list.body.error.name).toBe('InputError');
    expect(list.body.error.message).toBe(
      'invalid request: bogus: is not a parameter of this route',
    );
    expect(list.body.error.errors).toEqual([
      { field: 'bogus', message: 'is not a parameter of this route' },
    ]);

    // a change -common accepts, refused by the spec: nothing written
    const put = await h.send('put', '/v1/orgs/acme/cluster-allowlist?x=1', {
      body: { clusters: ['edge'] },
    });
    expect(put.status).toBe(400);
    expect(put.body.error.errors).toEqual([
      { field: 'x', message: 'is not a parameter of this route' },
    ]);
    const allowlist = await h.send('get', '/v1/orgs/acme/cluster-allowlist');
    expect(allowlist.body.clusters).toEqual(['old-one']);
  });

  it('keeps the field rules of -common first: their messages and field list, as before', async () => {
    const h = await startHarness();
    const res = await h.send('post', '/v1/clusters', {
      body: { name: 'Edge', inCluster: true, region: 'US EAST' },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.errors.map((e: any) => e.field)).toEqual([
      'name',
      'region',
    ]);
    expect(res.body.error.message).toMatch(
      /^invalid request: name: .*lowercase/,
    );
  });

  it('audits a change refused by the field rules as a failed event of that change, as before', async () => {
    const events: Array<{ id: string; meta: any; error: string }> = [];
    const auditor = mockServices.auditor.mock({
      createEvent: async (options: any) => ({
        success: async () => {
          throw new Error(`unexpected success of ${options.eventId}`);
        },
        fail: async (done: any) => {
          events.push({
            id: options.eventId,
            meta: done.meta ?? options.meta,
            error: done.error.message,
          });
        },
      }),
    });
    const h = await startHarness({ features: [auditor.factory] });
    const post = await h.send('post', '/v1/clusters', {
      body: { name: 'edge', inCluster: true, region: 'US EAST' },
    });
    expect(post.status).toBe(400);
    const put = await h.send('put', '/v1/orgs/acme/cluster-allowlist', {
      body: { clusters: ['Not A Name'] },
    });
    expect(put.status).toBe(400);
    expect(events).toEqual([
      {
        id: 'cluster-register',
        meta: { cluster: 'edge' },
        error: expect.stringMatching(/^invalid request: region: /),
      },
      {
        id: 'cluster-allowlist-update',
        meta: { org: 'acme' },
        error: expect.stringMatching(/^invalid request: clusters/),
      },
    ]);
  });

  describe('authorization answers first', () => {
    const badBody = { name: 'Edge', inCluster: 'yes', bogus: true };

    it('401 without a token, for a body and a query that break the spec', async () => {
      const h = await startHarness({ features: [noToken] });
      const post = await h.send('post', '/v1/clusters?bogus=1', {
        body: badBody,
        as: 'none',
      });
      expect(post.status).toBe(401);
      const get = await h.send('get', '/v1/orgs?bogus=1', { as: 'none' });
      expect(get.status).toBe(401);
      const zone = await h.send(
        'put',
        '/v1/products/ir-org-acme/checkout/zones/checkout-rc/cluster?bogus=1',
        { body: { cluster: 42 }, as: 'none' },
      );
      expect(zone.status).toBe(401);
    });

    it('403 naming the permission without it, for a body and a query that break the spec', async () => {
      const h = await startHarness({ features: [denied] });
      const post = await h.send('post', '/v1/clusters?bogus=1', {
        body: badBody,
      });
      expect(post.status).toBe(403);
      expect(post.body.error.message).toMatch(/infrared\.cluster\.create/);
      const get = await h.send('get', '/v1/orgs?bogus=1');
      expect(get.status).toBe(403);
      expect(get.body.error.message).toMatch(/infrared\.cluster\.read/);
      const action = await h.send(
        'put',
        '/v1/clusters/Not_A_Name/provision/action?bogus=1',
        { body: { action: 'launch' } },
      );
      expect(action.status).toBe(403);
      expect(action.body.error.message).toMatch(/infrared\.cluster\.provision/);
    });
  });
});

describe('specFieldErrors: the validator message read into fields', () => {
  it.each([
    [
      'request/body/name must match pattern "^[a-z]$", request/body must NOT have additional properties',
      [
        {
          field: 'name',
          message: 'must match pattern "^[a-z]$" (openapi.yaml)',
        },
        {
          field: 'body',
          message: 'must NOT have additional properties (openapi.yaml)',
        },
      ],
    ],
    [
      'request/body/provision/variables/size must be string',
      [
        {
          field: 'provision.variables.size',
          message: 'must be string (openapi.yaml)',
        },
      ],
    ],
    [
      'request/query/limit must be integer',
      [{ field: 'limit', message: 'must be integer (openapi.yaml)' }],
    ],
    [
      "Unknown query parameter 'x'",
      [{ field: 'x', message: 'is not a parameter of this route' }],
    ],
  ])('%s', (message, errors) => {
    expect(specFieldErrors(message)).toEqual(errors);
  });

  it('leaves other messages alone', () => {
    expect(specFieldErrors('the cluster edge already exists')).toBeUndefined();
  });
});

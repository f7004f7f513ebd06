import { startHarness } from './__testUtils__/harness';

/**
 * Names in a route's path (`..` itself is in the corpus: WHATWG URLs, which the spec check here
 * reads paths with, resolve it) are checked before anything is asked of the management cluster: the
 * in-memory one here would answer 404 for them, so each answer must come from the check (its
 * message names the parameter). The corpus (src/badInput) sends them to the real API server.
 */
describe('names in paths', () => {
  it.each<[string, 'get' | 'put', string, unknown, number, RegExp]>([
    [
      'an org starting with a hyphen',
      'get',
      '/v1/orgs/-acme/cluster-allowlist',
      undefined,
      404,
      /^org must start and end .*: nothing can have that name$/,
    ],
    [
      'an org with a slash',
      'put',
      '/v1/orgs/a%2Fb/cluster-allowlist',
      { clusters: [] },
      400,
      /org may contain only .* but contains "\/"/,
    ],
    [
      'a cluster starting with a hyphen',
      'get',
      '/v1/clusters/-edge',
      undefined,
      404,
      /^name must start and end/,
    ],
    [
      'a cluster with a look-alike',
      'get',
      '/v1/clusters/%D0%B5dge/provision/log',
      undefined,
      404,
      /name may contain only .* but contains "е"/,
    ],
    [
      'a cluster over 42 characters',
      'put',
      `/v1/clusters/${'a'.repeat(43)}/provision/action`,
      { action: 'plan' },
      400,
      /name is 43 characters long/,
    ],
    [
      'a product namespace with a percent',
      'get',
      '/v1/products/a%25b/shop/placement',
      undefined,
      404,
      /namespace may contain only .* but contains "%"/,
    ],
    [
      'a product name with two dots in a row',
      'get',
      '/v1/products/team/a..b/placement',
      undefined,
      404,
      /^name must start and end .*dot-separated parts/,
    ],
    [
      'a zone with a slash',
      'put',
      '/v1/products/team/shop/zones/a%2Fb/cluster',
      { cluster: 'edge' },
      400,
      /zone may contain only .* but contains "\/"/,
    ],
  ])(
    '%s: %s %s answers %#',
    async (_what, method, path, body, status, message) => {
      const h = await startHarness();
      const res = await h.send(
        method,
        path,
        body === undefined ? {} : { body },
      );
      expect(res.status).toBe(status);
      expect(res.body.error.message).toMatch(message);
    },
  );
});

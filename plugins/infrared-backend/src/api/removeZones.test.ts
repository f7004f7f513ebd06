import { mockServices } from '@backstage/backend-test-utils';
import { CA, kubeconfigText } from '../clusters/__testUtils__/fixtures';
import { startHarness, type Harness } from './__testUtils__/harness';

jest.setTimeout(30_000);

/** Issue 22.7: removing a cluster that zones use. */
describe('DELETE /v1/clusters/{name} with zones on the cluster', () => {
  const events: Array<{ id: string; meta: any }> = [];
  const auditor = mockServices.auditor.mock({
    createEvent: async (options: any) => ({
      success: async (done?: any) => {
        events.push({
          id: options.eventId,
          meta: { ...options.meta, ...done?.meta },
        });
      },
      fail: async () => {},
    }),
  }).factory;

  async function seeded(): Promise<Harness> {
    const h = await startHarness({ features: [auditor] });
    await h.send('post', '/v1/clusters', {
      body: { name: 'edge', kubeconfig: kubeconfigText() },
    });
    h.placement.addOrg('acme', { clusterAllowlist: ['edge', 'old-one'] });
    h.placement.addOrg('globex', { clusterAllowlist: ['edge'] });
    h.placement.addOrg('initech', { clusterAllowlist: [] });
    h.placement.addProduct('ir-org-acme', 'checkout', [
      { name: 'checkout-rc' },
      { name: 'checkout-prod', cluster: 'edge', environment: 'release' },
    ]);
    h.placement.addProduct('ir-org-globex', 'blog', [
      { name: 'blog-prod', cluster: 'edge' },
      { name: 'blog-other', cluster: 'other' },
    ]);
    return h;
  }

  beforeEach(() => events.splice(0));

  it('answers 200 with the zones that stop deploying and the allowlists the name was taken off, audited', async () => {
    const h = await seeded();
    const res = await h.send('delete', '/v1/clusters/edge');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      name: 'edge',
      zones: [
        {
          product: {
            namespace: 'ir-org-acme',
            name: 'checkout',
            displayName: 'checkout',
          },
          org: 'acme',
          zone: 'checkout-prod',
          environment: 'release',
          cluster: 'edge',
          clusterSet: true,
        },
        {
          product: {
            namespace: 'ir-org-globex',
            name: 'blog',
            displayName: 'blog',
          },
          org: 'globex',
          zone: 'blog-prod',
          environment: 'pre-release',
          cluster: 'edge',
          clusterSet: true,
        },
      ],
      allowlists: ['acme', 'globex'],
      message:
        'Cluster edge removed. Zones on the cluster stop deploying: ir-org-acme/checkout zone checkout-prod, ir-org-globex/blog zone blog-prod. Taken off the cluster allowlist of org acme, org globex: a cluster registered later under the name edge is not allowed until a platform admin ticks it again.',
    });
    expect(h.placement.orgs.get('acme')!.spec.clusterAllowlist).toEqual([
      'old-one',
    ]);
    expect(h.placement.orgs.get('globex')!.spec.clusterAllowlist).toEqual([]);
    expect(events.filter(e => e.id === 'cluster-remove')).toEqual([
      {
        id: 'cluster-remove',
        meta: {
          cluster: 'edge',
          zones: [
            'ir-org-acme/checkout zone checkout-prod',
            'ir-org-globex/blog zone blog-prod',
          ],
          allowlists: ['acme', 'globex'],
        },
      },
    ]);
  });

  it('a cluster registered later under the same name is on no allowlist: the zone Fails NotOnAllowlist', async () => {
    const h = await seeded();
    await h.send('delete', '/v1/clusters/edge');
    await h.send('post', '/v1/clusters', {
      body: { name: 'edge', kubeconfig: kubeconfigText() },
    });
    const placement = await h.send(
      'get',
      '/v1/products/ir-org-acme/checkout/placement',
    );
    expect(placement.body.zones[1]).toMatchObject({
      name: 'checkout-prod',
      decision: 'Fails',
      reason: 'NotOnAllowlist',
    });
  });

  it('lists no zone and touches no allowlist for a cluster nothing uses', async () => {
    const h = await seeded();
    // a server of its own: edge keeps the one of kubeconfigText() (issue 23.1)
    const registered = await h.send('post', '/v1/clusters', {
      body: {
        name: 'spare',
        kubeconfig: kubeconfigText(undefined, {
          server: 'https://198.51.100.8:6443',
          'certificate-authority-data': CA,
        }),
      },
    });
    expect(registered.status).toBe(201);
    const res = await h.send('delete', '/v1/clusters/spare');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      name: 'spare',
      zones: [],
      allowlists: [],
      message: 'Cluster spare removed. No zone names cluster spare.',
    });
  });

  it('GET of an allowlist flags the names no Cluster has as gone', async () => {
    const h = await seeded();
    const res = await h.send('get', '/v1/orgs/acme/cluster-allowlist');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      clusters: ['edge', 'old-one'],
      gone: ['old-one'],
    });
  });

  it('refuses the management cluster and lists nothing, taking no allowlist entry', async () => {
    const h = await seeded();
    h.placement.addOrg('platform', { clusterAllowlist: ['infrared-mgmt'] });
    const res = await h.send('delete', '/v1/clusters/infrared-mgmt');
    expect(res.status).toBe(409);
    expect(h.placement.orgs.get('platform')!.spec.clusterAllowlist).toEqual([
      'infrared-mgmt',
    ]);
  });
});

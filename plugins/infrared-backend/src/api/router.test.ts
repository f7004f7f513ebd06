import fs from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { mockCredentials, mockServices } from '@backstage/backend-test-utils';
import { AuthorizeResult } from '@backstage/plugin-permission-common';
import {
  INFRARED_NAMESPACE,
  secretStrings,
} from '@infrared-clusters/plugin-infrared-common';
import { KubeApiError } from '@infrared-clusters/infrared-kube';
import {
  CA,
  CERT,
  KEY,
  kubeconfigText,
  SERVER,
  TOKEN,
} from '../clusters/__testUtils__/fixtures';
import { BAD_REQUESTS } from './__testUtils__/badRequests';
import { OpenApiCheck } from './__testUtils__/openApiCheck';
import { startHarness, type Harness } from './__testUtils__/harness';
import { PROVISIONING_TASK_ID } from '../provisioning';

// Each case starts a harness (a test backend and the spec's validating router): seconds under CI load.
jest.setTimeout(30_000);

const openapi = new OpenApiCheck();
const everyResponse: Array<{ status: number; text: string }> = [];
const CERT_KUBECONFIG = kubeconfigText({
  'client-certificate-data': CERT,
  'client-key-data': KEY,
});

async function harness(
  options: Parameters<typeof startHarness>[0] = {},
): Promise<Harness> {
  const h = await startHarness({ ...options, openapi });
  const send = h.send;
  h.send = async (...args) => {
    const res = await send(...args);
    everyResponse.push({ status: res.status, text: res.text });
    return res;
  };
  return h;
}

/** Writes the test made, besides the management Cluster the first pass creates. */
function writes(h: Harness) {
  const verbs = h.api.counter.byVerb();
  return (
    (verbs.POST ?? 0) +
    (verbs.PUT ?? 0) +
    (verbs.PATCH ?? 0) +
    (verbs.DELETE ?? 0)
  );
}

/**
 * Waits until the passes an earlier write started have finished writing: the write count holds for
 * 200 ms (bounded: 10 s). What a test then sends is measured alone.
 */
async function settled(h: Harness): Promise<number> {
  let last = writes(h);
  let quiet = 0;
  for (let i = 0; i < 200 && quiet < 4; i++) {
    await new Promise(r => setTimeout(r, 50));
    const now = writes(h);
    quiet = now === last ? quiet + 1 : 0;
    last = now;
  }
  return last;
}

describe('REST API: org allowlists and zone placement', () => {
  const ADMIN_ONLY_DENIED = (name: string) =>
    mockServices.permissions.mock({
      authorize: async requests =>
        requests.map((r: any) => ({
          result:
            r.permission.name === name
              ? AuthorizeResult.DENY
              : AuthorizeResult.ALLOW,
        })),
    }).factory;
  const auditorWith = (events: Array<{ id: string; meta: any }>) =>
    mockServices.auditor.mock({
      createEvent: async (options: any) => ({
        success: async (done?: any) => {
          events.push({
            id: options.eventId,
            meta: { ...options.meta, ...done?.meta, result: 'succeeded' },
          });
        },
        fail: async (done: any) => {
          events.push({
            id: options.eventId,
            meta: {
              ...options.meta,
              result: 'failed',
              error: done.error.message,
            },
          });
        },
      }),
    }).factory;

  async function seeded(options: Parameters<typeof harness>[0] = {}) {
    const h = await harness(options);
    h.placement.addOrg('acme', {
      displayName: 'ACME',
      clusterAllowlist: ['old-one'],
      teams: [
        { name: 'leads', role: 'org-admin', members: ['user:default/mock'] },
      ],
    });
    h.placement.addOrg('globex');
    h.placement.addProduct('ir-org-acme', 'checkout', [
      { name: 'checkout-rc' },
      { name: 'checkout-prod', cluster: 'edge', environment: 'release' },
    ]);
    h.placement.addAppProject('products', [
      { name: '*', server: '*', namespace: '*' },
    ]);
    return h;
  }

  it('lists organizations with their allowlists', async () => {
    const h = await seeded();
    const res = await h.send('get', '/v1/orgs');
    expect(res.status).toBe(200);
    expect(res.body.items).toEqual([
      {
        name: 'acme',
        displayName: 'ACME',
        namespace: 'ir-org-acme',
        platform: false,
        clusterAllowlist: ['old-one'],
      },
      {
        name: 'globex',
        displayName: 'globex',
        namespace: 'ir-org-globex',
        platform: false,
        clusterAllowlist: [],
      },
    ]);
  });

  it('replaces an allowlist, audited with who, the org and the list before and after', async () => {
    const events: Array<{ id: string; meta: any }> = [];
    const h = await seeded({ features: [auditorWith(events)] });
    const res = await h.send('put', '/v1/orgs/acme/cluster-allowlist', {
      body: { clusters: ['edge', 'core'] },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ clusters: ['core', 'edge'] });
    expect(h.placement.orgs.get('acme')!.spec.clusterAllowlist).toEqual([
      'core',
      'edge',
    ]);
    expect(events).toEqual([
      {
        id: 'cluster-allowlist-update',
        meta: {
          org: 'acme',
          before: ['old-one'],
          after: ['core', 'edge'],
          changed: true,
          result: 'succeeded',
        },
      },
    ]);
    const read = await h.send('get', '/v1/orgs/acme/cluster-allowlist');
    // neither is a Cluster here: both are flagged gone (issue 22.7)
    expect(read.body).toEqual({
      clusters: ['core', 'edge'],
      gone: ['core', 'edge'],
    });
  });

  it('writes nothing when the allowlist already holds these clusters', async () => {
    const h = await seeded();
    const res = await h.send('put', '/v1/orgs/acme/cluster-allowlist', {
      body: { clusters: ['old-one'] },
    });
    expect(res.status).toBe(200);
    expect(h.placement.writes).toBe(0);
  });

  it('answers 404 for an unknown org, reading and writing', async () => {
    const h = await seeded();
    const put = await h.send('put', '/v1/orgs/initech/cluster-allowlist', {
      body: { clusters: ['edge'] },
    });
    expect(put.status).toBe(404);
    expect(put.body.error.message).toBe('Organization initech not found');
    const get = await h.send('get', '/v1/orgs/initech/cluster-allowlist');
    expect(get.status).toBe(404);
    expect(h.placement.writes).toBe(0);
  });

  it('answers 403 naming infrared.allowlist.update to one who is not a platform admin, writing nothing', async () => {
    const h = await seeded({
      features: [ADMIN_ONLY_DENIED('infrared.allowlist.update')],
    });
    const res = await h.send('put', '/v1/orgs/acme/cluster-allowlist', {
      body: { clusters: ['edge'] },
    });
    expect(res.status).toBe(403);
    expect(res.body.error.message).toMatch(/infrared\.allowlist\.update/);
    expect(h.placement.writes).toBe(0);
  });

  it.each<[string, unknown, string[], RegExp]>([
    ['a body that is not an object', ['edge'], ['body'], /JSON object/],
    ['no clusters', {}, ['clusters'], /clusters is required/],
    [
      'clusters not a list',
      { clusters: 'edge' },
      ['clusters'],
      /must be an array/,
    ],
    [
      'a name that is not a cluster name',
      { clusters: ['Edge_1'] },
      ['clusters[0]'],
      /clusters\[0\]/,
    ],
    [
      'a name that is not a string',
      { clusters: [7] },
      ['clusters[0]'],
      /must be a string/,
    ],
    [
      'duplicate names',
      { clusters: ['edge', 'edge'] },
      ['clusters[1]'],
      /repeats "edge"/,
    ],
    [
      'more than 1,000 clusters',
      { clusters: Array.from({ length: 1001 }, (_, i) => `c${i}`) },
      ['clusters'],
      /at most 1000/,
    ],
    [
      'an unknown field',
      { clusters: [], org: 'acme' },
      ['org'],
      /unknown field "org"/,
    ],
  ])(
    'refuses %s with 400 naming the field, writing nothing',
    async (_what, body, fields, message) => {
      const h = await seeded();
      const res = await h.send('put', '/v1/orgs/acme/cluster-allowlist', {
        body,
      });
      expect(res.status).toBe(400);
      expect(res.body.error.name).toBe('InputError');
      expect(res.body.error.message).toMatch(message);
      expect(res.body.error.errors.map((e: any) => e.field)).toEqual(fields);
      expect(h.placement.writes).toBe(0);
    },
  );

  it('lists every zone with the cluster it runs on', async () => {
    const h = await seeded();
    const res = await h.send('get', '/v1/zones');
    expect(res.status).toBe(200);
    expect(res.body.items.map((z: any) => [z.zone, z.cluster, z.org])).toEqual([
      ['checkout-rc', 'infrared-mgmt', 'acme'],
      ['checkout-prod', 'edge', 'acme'],
    ]);
  });

  it("answers a Product's placement: each zone's decision, reason, path, destination and choices", async () => {
    const h = await seeded();
    const res = await h.send(
      'get',
      '/v1/products/ir-org-acme/checkout/placement',
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      namespace: 'ir-org-acme',
      name: 'checkout',
      org: { name: 'acme', displayName: 'ACME' },
      managementCluster: 'infrared-mgmt',
      allowedClusters: ['old-one'],
      can: { setZoneCluster: true, updateAllowlist: true },
    });
    expect(res.body.zones).toEqual([
      expect.objectContaining({
        name: 'checkout-rc',
        decision: 'Promotes',
        reason: 'ManagementCluster',
        applicationPath:
          'registry/clusters/infrared-mgmt/components/product-checkout-rc.yaml',
        destination: {
          server: 'https://kubernetes.default.svc',
          namespace: 'checkout-rc',
        },
      }),
      expect.objectContaining({
        name: 'checkout-prod',
        environment: 'release',
        approval: 'human',
        cluster: 'edge',
        decision: 'Fails',
        reason: 'NotOnAllowlist',
        message: expect.stringMatching(/not on org acme's cluster allowlist/),
        applicationPath:
          'registry/clusters/edge/components/product-checkout-prod.yaml',
        destination: { name: 'edge', namespace: 'checkout-prod' },
        project: 'products',
        choices: ['old-one'],
      }),
    ]);
  });

  it('answers 404 for a Product that is not found', async () => {
    const h = await seeded();
    const res = await h.send('get', '/v1/products/ir-org-acme/nope/placement');
    expect(res.status).toBe(404);
    expect(res.body.error.message).toBe('Product ir-org-acme/nope not found');
  });

  it("lets an org admin set a zone's cluster from the org's allowlist, audited", async () => {
    const events: Array<{ id: string; meta: any }> = [];
    const h = await seeded({
      features: [
        ADMIN_ONLY_DENIED('infrared.allowlist.update'),
        auditorWith(events),
      ],
    });
    const res = await h.send(
      'put',
      '/v1/products/ir-org-acme/checkout/zones/checkout-prod/cluster',
      { body: { cluster: 'old-one' } },
    );
    expect(res.status).toBe(200);
    expect(res.body.can).toEqual({
      setZoneCluster: true,
      updateAllowlist: false,
      approveZones: true,
    });
    expect(res.body.zones[1]).toMatchObject({
      cluster: 'old-one',
      reason: 'UnknownCluster',
    });
    expect(
      h.placement.products.get('ir-org-acme/checkout')!.spec.delivery!.zones[1],
    ).toEqual({
      name: 'checkout-prod',
      cluster: 'old-one',
      environment: 'release',
    });
    expect(events).toEqual([
      {
        id: 'zone-cluster-update',
        meta: {
          product: 'ir-org-acme/checkout',
          zone: 'checkout-prod',
          before: 'edge',
          after: 'old-one',
          result: 'succeeded',
        },
      },
    ]);
    // "" moves it to the management cluster.
    const cleared = await h.send(
      'put',
      '/v1/products/ir-org-acme/checkout/zones/checkout-prod/cluster',
      { body: { cluster: '' } },
    );
    expect(cleared.body.zones[1]).toMatchObject({
      cluster: 'infrared-mgmt',
      decision: 'Promotes',
    });
  });

  it.each<[string, string, unknown, number, RegExp]>([
    [
      'a cluster the org may not use',
      'checkout-prod',
      { cluster: 'edge' },
      400,
      /cluster: edge is not a cluster org acme may use \(allowed: old-one\)/,
    ],
    [
      'a cluster name that is not one',
      'checkout-prod',
      { cluster: 'Edge!' },
      400,
      /cluster may contain only/,
    ],
    ['no cluster field', 'checkout-prod', {}, 400, /cluster is required/],
    [
      'a zone the Product does not have',
      'checkout-qa',
      { cluster: 'old-one' },
      404,
      /has no zone checkout-qa/,
    ],
  ])(
    "refuses %s for a zone's cluster, writing nothing",
    async (_what, zone, body, status, message) => {
      const h = await seeded();
      const res = await h.send(
        'put',
        `/v1/products/ir-org-acme/checkout/zones/${zone}/cluster`,
        { body },
      );
      expect(res.status).toBe(status);
      expect(res.body.error.message).toMatch(message);
      expect(h.placement.writes).toBe(0);
    },
  );

  it("refuses to set a zone's cluster for one who is neither an org admin nor a platform admin", async () => {
    const h = await seeded({
      features: [ADMIN_ONLY_DENIED('infrared.allowlist.update')],
    });
    h.placement.orgs.get('acme')!.spec.teams = [];
    const res = await h.send(
      'put',
      '/v1/products/ir-org-acme/checkout/zones/checkout-prod/cluster',
      { body: { cluster: 'old-one' } },
    );
    expect(res.status).toBe(403);
    expect(res.body.error.message).toMatch(/org admin of org acme/);
    expect(h.placement.writes).toBe(0);
  });

  it('answers 404 for the zone cluster of a Product that is not found', async () => {
    const h = await seeded();
    const res = await h.send(
      'put',
      '/v1/products/ir-org-acme/nope/zones/checkout-prod/cluster',
      { body: { cluster: 'old-one' } },
    );
    expect(res.status).toBe(404);
  });

  describe('release zone approval', () => {
    const APPROVAL =
      '/v1/products/ir-org-acme/checkout/releases/checkout-v1/zones/checkout-prod/approval';
    async function awaiting(options: Parameters<typeof harness>[0] = {}) {
      const h = await seeded(options);
      h.placement.releases.set('ir-org-acme/checkout-v1', {
        apiVersion: 'infrared.darkshift.io/v1alpha1',
        kind: 'Release',
        metadata: {
          name: 'checkout-v1',
          namespace: 'ir-org-acme',
          resourceVersion: '100',
        },
        spec: { productRef: { name: 'checkout' } },
        status: {
          phase: 'AwaitingApproval',
          zones: [
            { name: 'checkout-rc', phase: 'Healthy' },
            { name: 'checkout-prod', phase: 'AwaitingApproval' },
          ],
        },
      });
      return h;
    }
    const zones = (h: Awaited<ReturnType<typeof awaiting>>) =>
      h.placement.releases.get('ir-org-acme/checkout-v1')!.status!.zones!;

    it('lets an org admin approve a zone awaiting approval: approvedBy and approvedAt, audited', async () => {
      const events: Array<{ id: string; meta: any }> = [];
      const h = await awaiting({
        features: [
          ADMIN_ONLY_DENIED('infrared.allowlist.update'),
          auditorWith(events),
        ],
      });
      const res = await h.send('post', APPROVAL);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        release: 'checkout-v1',
        zone: 'checkout-prod',
        phase: 'AwaitingApproval',
        approvedBy: 'user:default/mock',
        approvedAt: expect.any(String),
      });
      // (the gate pass the approval started has decided the zone since, keeping both)
      expect(zones(h)[1]).toMatchObject({
        name: 'checkout-prod',
        approvedBy: 'user:default/mock',
        approvedAt: res.body.approvedAt,
      });
      expect(zones(h)[0]).toMatchObject({
        name: 'checkout-rc',
        phase: 'Healthy',
      });
      expect(zones(h)[0].approvedBy).toBeUndefined();
      expect(events).toEqual([
        {
          id: 'release-zone-approve',
          meta: {
            product: 'ir-org-acme/checkout',
            release: 'checkout-v1',
            zone: 'checkout-prod',
            approvedBy: 'user:default/mock',
            approvedAt: res.body.approvedAt,
            result: 'succeeded',
          },
        },
      ]);
      // the placement view shows it
      const view = await h.send(
        'get',
        '/v1/products/ir-org-acme/checkout/placement',
      );
      expect(view.body.zones[1].release).toMatchObject({
        name: 'checkout-v1',
        approvedBy: 'user:default/mock',
        approvedAt: res.body.approvedAt,
      });
      expect(view.body.can.approveZones).toBe(true);
    });

    it('refuses one who is neither an org admin nor a platform admin with 403, writing nothing', async () => {
      const events: Array<{ id: string; meta: any }> = [];
      const h = await awaiting({
        features: [
          ADMIN_ONLY_DENIED('infrared.allowlist.update'),
          auditorWith(events),
        ],
      });
      h.placement.orgs.get('acme')!.spec.teams = [
        { name: 'devs', role: 'member', members: ['user:default/mock'] },
      ];
      const res = await h.send('post', APPROVAL);
      expect(res.status).toBe(403);
      expect(res.body.error.message).toBe(
        'only an org admin of org acme (a member of a team with role org-admin) or a platform admin may approve a release zone',
      );
      expect(h.placement.writes).toBe(0);
      expect(events.map(e => [e.id, e.meta.result])).toEqual([
        ['release-zone-approve', 'failed'],
      ]);
      const view = await h.send(
        'get',
        '/v1/products/ir-org-acme/checkout/placement',
      );
      expect(view.body.can.approveZones).toBe(false);
    });

    it.each<[string, string, number, RegExp]>([
      [
        'a zone that is Healthy',
        '/v1/products/ir-org-acme/checkout/releases/checkout-v1/zones/checkout-rc/approval',
        409,
        /^zone checkout-rc of Release checkout-v1 is in phase Healthy: only a zone in phase AwaitingApproval can be approved$/,
      ],
      [
        'an unknown Release',
        '/v1/products/ir-org-acme/checkout/releases/checkout-v2/zones/checkout-prod/approval',
        404,
        /Release ir-org-acme\/checkout-v2 of Product checkout not found/,
      ],
      [
        'a zone the Product does not have',
        '/v1/products/ir-org-acme/checkout/releases/checkout-v1/zones/checkout-qa/approval',
        404,
        /has no zone checkout-qa/,
      ],
      [
        'a Release name that is not one',
        '/v1/products/ir-org-acme/checkout/releases/Checkout_V1/zones/checkout-prod/approval',
        400,
        /release/,
      ],
    ])('refuses %s, writing nothing', async (_what, path, status, message) => {
      const h = await awaiting();
      const res = await h.send('post', path);
      expect(res.status).toBe(status);
      expect(res.body.error.message).toMatch(message);
      expect(h.placement.writes).toBe(0);
    });

    it('answers 409 to a second approval, naming who approved', async () => {
      const h = await awaiting();
      zones(h)[1].approvedBy = 'user:default/olga';
      const again = await h.send('post', APPROVAL);
      expect(again.status).toBe(409);
      expect(again.body.error.message).toBe(
        'zone checkout-prod of Release checkout-v1 is already approved by user:default/olga',
      );
      expect(h.placement.writes).toBe(0);
    });
  });

  it('answers 503 without a management cluster', async () => {
    const h = await harness({ managed: false });
    for (const [method, path, body] of [
      ['get', '/v1/orgs'],
      ['get', '/v1/orgs/acme/cluster-allowlist'],
      ['put', '/v1/orgs/acme/cluster-allowlist', { clusters: [] }],
      ['get', '/v1/zones'],
      ['get', '/v1/products/ns/p/placement'],
      ['put', '/v1/products/ns/p/zones/z/cluster', { cluster: '' }],
      ['post', '/v1/products/ns/p/releases/r/zones/z/approval'],
    ] as const) {
      const res = await h.send(method, path, { body });
      expect([path, res.status]).toEqual([path, 503]);
    }
  });
});

describe('REST API /v1/clusters', () => {
  describe('POST', () => {
    it('registers a kubeconfig cluster: Secret, Cluster, owner reference; 201 without the kubeconfig', async () => {
      const h = await harness();
      const res = await h.send('post', '/v1/clusters', {
        body: {
          name: 'edge-us-east-1',
          kubeconfig: kubeconfigText(),
          flavor: 'k3s',
          provider: 'aws',
          region: 'us-east-1',
        },
      });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        name: 'edge-us-east-1',
        type: 'workload',
        flavor: 'k3s',
        provider: 'aws',
        region: 'us-east-1',
        connection: 'kubeconfig',
        conditions: [],
      });
      const cluster = h.api.clusterStore.get('edge-us-east-1')!;
      expect(cluster.spec.connection).toEqual({
        kubeconfigSecretRef: {
          name: 'cluster-edge-us-east-1-kubeconfig',
          key: 'kubeconfig',
        },
      });
      const secret = h.api.secretStore.get(
        `${INFRARED_NAMESPACE}/cluster-edge-us-east-1-kubeconfig`,
      )!;
      expect(secretStrings(secret).kubeconfig).toBe(kubeconfigText());
      expect(secret.metadata.ownerReferences).toEqual([
        expect.objectContaining({
          kind: 'Cluster',
          name: 'edge-us-east-1',
          uid: cluster.metadata.uid,
          controller: true,
        }),
      ]);
    });

    it('reconciles the new cluster at once: Connected, Argo CD Secret, Registered', async () => {
      const h = await harness();
      await h.send('post', '/v1/clusters', {
        body: { name: 'edge', kubeconfig: kubeconfigText() },
      });
      let view: any;
      for (let i = 0; i < 100; i++) {
        view = (await h.send('get', '/v1/clusters/edge')).body;
        if (view.conditions.find((c: any) => c.type === 'Registered')) break;
        await new Promise(r => setTimeout(r, 20));
      }
      expect(view.conditions.map((c: any) => [c.type, c.status])).toEqual([
        ['Connected', 'True'],
        ['Registered', 'True'],
      ]);
      expect(view).toMatchObject({
        kubernetesVersion: 'v1.37.2',
        nodes: 2,
        argoSecret: 'cluster-edge',
        argoServer: SERVER,
        gitopsPath:
          'registry/clusters/infrared-mgmt/components/cluster-edge.yaml',
        pullRequest: { url: expect.any(String), merged: true },
      });
      // Once, although an API write also triggers the scheduled pass.
      await h.scheduler.triggerTask('infrared-clusters-reconcile');
      expect(
        h.publisher.changes.filter(c => c.key === 'cluster-edge'),
      ).toHaveLength(1);
      expect(h.api.secretStore.has('argocd/cluster-edge')).toBe(true);
    });

    it('registers an inCluster cluster without any Secret', async () => {
      const h = await harness();
      const res = await h.send('post', '/v1/clusters', {
        body: { name: 'local-zones', inCluster: true },
      });
      expect(res.status).toBe(201);
      expect(res.body.connection).toBe('inCluster');
      expect(h.api.clusterStore.get('local-zones')!.spec.connection).toEqual({
        inCluster: true,
      });
      expect(
        [...h.api.secretStore.keys()].filter(k => k.includes('local-zones')),
      ).toEqual([]);
    });

    it('is allowed to a caller with an external-access token (service principal)', async () => {
      const h = await harness();
      const res = await h.send('post', '/v1/clusters', {
        body: { name: 'edge', inCluster: true },
        as: 'service',
      });
      expect(res.status).toBe(201);
    });

    it.each(BAD_REQUESTS)(
      'refuses %s with 400 naming field and reason, writing nothing',
      async (_what, body, patterns) => {
        const h = await harness();
        const before = writes(h);
        const res = await h.send('post', '/v1/clusters', { body });
        expect(res.status).toBe(400);
        expect(res.body.error.name).toBe('InputError');
        for (const pattern of patterns)
          expect(res.body.error.message).toMatch(pattern);
        expect(res.body.error.errors.length).toBeGreaterThan(0);
        expect(writes(h)).toBe(before);
        expect([...h.api.secretStore.keys()]).toEqual([]);
      },
    );

    it('refuses malformed JSON with 400, without echoing the body', async () => {
      const h = await harness();
      const res = await h.send('post', '/v1/clusters', {
        raw: `{"name": "edge", "kubeconfig": "token: ${TOKEN}" `,
      });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toMatch(/not valid JSON/);
      expect(res.text).not.toContain(TOKEN);
    });

    it('refuses a body over 1 MiB with 413 and a clear message', async () => {
      const h = await harness();
      const res = await h.send('post', '/v1/clusters', {
        raw: JSON.stringify({
          name: 'edge',
          kubeconfig: `${kubeconfigText()}#${'x'.repeat(1024 * 1024)}`,
        }),
      });
      expect(res.status).toBe(413);
      expect(res.body.error.message).toMatch(/over the limit of 1 MiB/);
      expect(h.api.clusterStore.has('edge')).toBe(false);
    });

    it('accepts a body just under 1 MiB (the limit is the body, not less)', async () => {
      const h = await harness();
      const text = kubeconfigText();
      const padding = 1024 * 1024 - 200 - text.length;
      const res = await h.send('post', '/v1/clusters', {
        raw: JSON.stringify({
          name: 'edge',
          kubeconfig: `${text}#${'x'.repeat(padding)}`,
        }),
      });
      expect(res.status).toBe(201);
    });

    it('answers 409 when the Cluster exists, writing nothing', async () => {
      const h = await harness();
      await h.send('post', '/v1/clusters', {
        body: { name: 'edge', inCluster: true },
      });
      // the registration's own passes run on after its answer
      const before = await settled(h);
      const res = await h.send('post', '/v1/clusters', {
        body: { name: 'edge', kubeconfig: kubeconfigText() },
      });
      expect(res.status).toBe(409);
      expect(res.body.error.message).toMatch(/cluster edge already exists/);
      expect(writes(h)).toBe(before);
      expect(
        h.api.secretStore.has(`${INFRARED_NAMESPACE}/cluster-edge-kubeconfig`),
      ).toBe(false);
    });

    it.each([
      ['made by hand', {}, /was made by hand/],
      [
        'of the registrar',
        {
          'argocd-cluster-registrar/managed-by': 'cluster-registrar',
          'argocd-cluster-registrar/source-namespace': 'k3k-edge',
        },
        /managed by the child-cluster registrar \(label argocd-cluster-registrar\/managed-by=cluster-registrar, from namespace k3k-edge\)/,
      ],
      [
        'of another tool',
        { 'app.kubernetes.io/managed-by': 'Helm' },
        /managed by another tool, Helm/,
      ],
    ])(
      'answers 409 when argocd/cluster-<name> exists %s, naming who manages it, writing nothing',
      async (_who, labels, message) => {
        const h = await harness();
        await h.api.secrets.create({
          apiVersion: 'v1',
          kind: 'Secret',
          type: 'Opaque',
          metadata: { name: 'cluster-edge', namespace: 'argocd', labels },
          stringData: { name: 'edge', server: 'https://203.0.113.9:6443' },
        });
        const before = writes(h);
        for (const body of [
          { name: 'edge', kubeconfig: CERT_KUBECONFIG },
          { name: 'edge', inCluster: true },
        ]) {
          const res = await h.send('post', '/v1/clusters', { body });
          expect(res.status).toBe(409);
          expect(res.body.error.message).toMatch(message);
          expect(res.body.error.message).toMatch(/Secret argocd\/cluster-edge/);
        }
        expect(writes(h)).toBe(before);
        expect(h.api.clusterStore.has('edge')).toBe(false);
        expect(
          h.api.secretStore.has(
            `${INFRARED_NAMESPACE}/cluster-edge-kubeconfig`,
          ),
        ).toBe(false);
      },
    );

    it('answers 409 when a kubeconfig Secret of that name is already there', async () => {
      const h = await harness();
      await h.api.secrets.create({
        apiVersion: 'v1',
        kind: 'Secret',
        type: 'Opaque',
        metadata: {
          name: 'cluster-edge-kubeconfig',
          namespace: INFRARED_NAMESPACE,
        },
        stringData: { kubeconfig: 'hand-made' },
      });
      const res = await h.send('post', '/v1/clusters', {
        body: { name: 'edge', kubeconfig: CERT_KUBECONFIG },
      });
      expect(res.status).toBe(409);
      expect(res.body.error.message).toMatch(
        /already exists without a Cluster/,
      );
      expect(h.api.clusterStore.has('edge')).toBe(false);
      expect(
        secretStrings(
          h.api.secretStore.get(
            `${INFRARED_NAMESPACE}/cluster-edge-kubeconfig`,
          )!,
        ).kubeconfig,
      ).toBe('hand-made');
    });

    it('removes the kubeconfig Secret again when the Cluster cannot be created', async () => {
      const h = await harness();
      h.api.failNext.set(
        'clusters.create',
        new KubeApiError(
          422,
          'Invalid',
          'CREATE cluster edge: spec.region: Too long',
        ),
      );
      const res = await h.send('post', '/v1/clusters', {
        body: { name: 'edge', kubeconfig: kubeconfigText() },
      });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toMatch(/refused it/);
      expect([...h.api.secretStore.keys()]).toEqual([]);
      expect(h.api.clusterStore.has('edge')).toBe(false);
    });

    it('answers 403 to a caller who is not a platform admin, writing nothing', async () => {
      const h = await harness({
        features: [
          mockServices.permissions.factory({ result: AuthorizeResult.DENY }),
        ],
      });
      const before = writes(h);
      const res = await h.send('post', '/v1/clusters', {
        body: { name: 'edge', kubeconfig: kubeconfigText() },
      });
      expect(res.status).toBe(403);
      expect(res.body.error.name).toBe('NotAllowedError');
      expect(res.body.error.message).toMatch(/infrared\.cluster\.create/);
      expect(writes(h)).toBe(before);
    });

    it('answers 401 without a token', async () => {
      const h = await harness({
        features: [
          mockServices.httpAuth.factory({
            defaultCredentials: mockCredentials.none(),
          }),
        ],
      });
      const res = await h.send('post', '/v1/clusters', {
        body: { name: 'edge', inCluster: true },
        as: 'none',
      });
      expect(res.status).toBe(401);
    });

    it('answers 503 when no management cluster is configured', async () => {
      const h = await harness({ managed: false });
      const res = await h.send('post', '/v1/clusters', {
        body: { name: 'edge', inCluster: true },
      });
      expect(res.status).toBe(503);
      expect(res.body.error.message).toMatch(/no management cluster/);
    });

    it('audits registration without the kubeconfig', async () => {
      const auditor = mockServices.auditor.mock();
      const h = await harness({ features: [auditor.factory] });
      await h.send('post', '/v1/clusters', {
        body: { name: 'edge', kubeconfig: kubeconfigText() },
      });
      expect(auditor.createEvent).toHaveBeenCalledWith(
        expect.objectContaining({
          eventId: 'cluster-register',
          meta: { cluster: 'edge' },
        }),
      );
      for (const [options] of auditor.createEvent.mock.calls) {
        expect(JSON.stringify(options.meta ?? {})).not.toContain(TOKEN);
      }
    });
  });

  describe('GET', () => {
    it('lists clusters, the management cluster included, without credentials', async () => {
      const h = await harness();
      await h.send('post', '/v1/clusters', {
        body: { name: 'edge', kubeconfig: CERT_KUBECONFIG },
      });
      const res = await h.send('get', '/v1/clusters');
      expect(res.status).toBe(200);
      expect(res.body.items.map((c: any) => [c.name, c.type])).toEqual([
        ['edge', 'workload'],
        ['infrared-mgmt', 'management'],
      ]);
    });

    it('returns one cluster', async () => {
      const h = await harness();
      await h.send('post', '/v1/clusters', {
        body: { name: 'edge', inCluster: true },
      });
      const res = await h.send('get', '/v1/clusters/edge');
      expect(res.status).toBe(200);
      expect(res.body.name).toBe('edge');
    });

    it('answers 404 for an unknown or impossible name', async () => {
      const h = await harness();
      expect((await h.send('get', '/v1/clusters/nope')).status).toBe(404);
      expect((await h.send('get', '/v1/clusters/NOPE%2Fstatus')).status).toBe(
        404,
      );
    });

    it('answers 403 without the read permission', async () => {
      const h = await harness({
        features: [
          mockServices.permissions.factory({ result: AuthorizeResult.DENY }),
        ],
      });
      expect((await h.send('get', '/v1/clusters')).status).toBe(403);
      expect((await h.send('get', '/v1/clusters/infrared-mgmt')).status).toBe(
        403,
      );
    });

    it('answers 503 with what to do when the Cluster CRD is not installed', async () => {
      const h = await harness();
      h.api.failNext.set(
        'clusters.list',
        new KubeApiError(
          404,
          'NotFound',
          'LIST clusters: the server could not find the requested resource',
        ),
      );
      const res = await h.send('get', '/v1/clusters');
      expect(res.status).toBe(503);
      expect(res.body.error.message).toMatch(/apply the CRDs in deploy\/crds/);
    });

    it('answers /health', async () => {
      const h = await harness();
      expect((await h.send('get', '/health')).body).toEqual({ status: 'ok' });
    });
  });

  describe('DELETE', () => {
    it('removes a cluster; its Secrets go with it (owner references)', async () => {
      const h = await harness();
      await h.send('post', '/v1/clusters', {
        body: { name: 'edge', kubeconfig: kubeconfigText() },
      });
      await h.scheduler.triggerTask('infrared-clusters-reconcile');
      expect(h.api.secretStore.has('argocd/cluster-edge')).toBe(true);
      const res = await h.send('delete', '/v1/clusters/edge');
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ name: 'edge', zones: [] });
      expect(h.api.clusterStore.has('edge')).toBe(false);
      expect([...h.api.secretStore.keys()]).toEqual([]);
    });

    it('answers 404 for an unknown cluster', async () => {
      const h = await harness();
      const res = await h.send('delete', '/v1/clusters/nope');
      expect(res.status).toBe(404);
    });

    it('answers 400 for an impossible name', async () => {
      const h = await harness();
      const res = await h.send('delete', '/v1/clusters/Nope');
      expect(res.status).toBe(400);
    });

    it('refuses to remove the management cluster with 409 and the reason', async () => {
      const h = await harness();
      const res = await h.send('delete', '/v1/clusters/infrared-mgmt');
      expect(res.status).toBe(409);
      expect(res.body.error.message).toMatch(
        /the management cluster cannot be removed/,
      );
      expect(h.api.clusterStore.has('infrared-mgmt')).toBe(true);
    });

    it('answers 403 to a caller who is not a platform admin', async () => {
      const h = await harness({
        features: [
          mockServices.permissions.factory({ result: AuthorizeResult.DENY }),
        ],
      });
      const res = await h.send('delete', '/v1/clusters/infrared-mgmt');
      expect(res.status).toBe(403);
      expect(res.body.error.message).toMatch(/infrared\.cluster\.delete/);
    });
  });

  describe('clusters built with OpenTofu', () => {
    const TEMPLATES = [
      {
        module: 'local/demo',
        version: 'v1',
        title: 'Demo',
        description: 'A local API server',
        source: '/repo/examples/tofu/demo',
        variables: [
          { name: 'name', type: 'string' },
          { name: 'nodes', type: 'number', default: '1' },
        ],
      },
    ];
    const withTemplates = (extra: any[] = []) =>
      harness({
        features: [
          mockServices.rootConfig.factory({
            data: { infrared: { provisioning: { templates: TEMPLATES } } },
          }),
          ...extra,
        ],
      });
    const build = {
      name: 'built',
      flavor: 'k3s',
      provider: 'local',
      template: { module: 'local/demo', version: 'v1' },
      provision: {
        variables: { name: 'built' },
        credentialsSecretRef: { name: 'built-creds' },
      },
    };
    const createBuilt = async (h: Harness) => {
      const res = await h.send('post', '/v1/clusters', { body: build });
      expect(res.status).toBe(201);
      await h.scheduler.triggerTask(PROVISIONING_TASK_ID);
      return res;
    };

    it.each([
      [
        { image: 'evil.example/miner:latest' },
        'provision.image',
        'provision.image: "evil.example/miner:latest" is not in infrared.provisioning.allowedImages',
      ],
      [
        { source: 'git::https://evil.example/steal' },
        'provision.source',
        'provision.source: "git::https://evil.example/steal" is not in infrared.provisioning.allowedSources',
      ],
    ])(
      "POST with provision %j outside the allow-list (by default the templates' own): 400 naming %s, nothing written",
      async (extra, field, message) => {
        const h = await withTemplates();
        const res = await h.send('post', '/v1/clusters', {
          body: { ...build, provision: { ...build.provision, ...extra } },
        });
        expect(res.status).toBe(400);
        expect(res.body.error.message).toContain(message);
        expect(res.body.error.errors).toEqual([
          { field, message: expect.any(String) },
        ]);
        expect(h.api.clusterStore.has('built')).toBe(false);
      },
    );

    it("POST with the template's own source and the default image: 201", async () => {
      const h = await withTemplates();
      const res = await h.send('post', '/v1/clusters', {
        body: {
          ...build,
          provision: {
            ...build.provision,
            image: 'ghcr.io/opentofu/opentofu:1.10',
            source: '/repo/examples/tofu/demo',
          },
        },
      });
      expect(res.status).toBe(201);
    });

    it('POST: infrared.provisioning.allowedImages and allowedSources replace the defaults', async () => {
      const h = await harness({
        features: [
          mockServices.rootConfig.factory({
            data: {
              infrared: {
                provisioning: {
                  templates: TEMPLATES,
                  allowedImages: ['registry.example/tofu:1.10'],
                  allowedSources: ['git::https://example.com/modules//demo'],
                },
              },
            },
          }),
        ],
      });
      const refused = await h.send('post', '/v1/clusters', {
        body: {
          ...build,
          provision: {
            ...build.provision,
            image: 'ghcr.io/opentofu/opentofu:1.10',
          },
        },
      });
      expect(refused.status).toBe(400);
      expect(refused.body.error.message).toContain(
        'provision.image: "ghcr.io/opentofu/opentofu:1.10" is not in infrared.provisioning.allowedImages',
      );
      const res = await h.send('post', '/v1/clusters', {
        body: {
          ...build,
          provision: {
            ...build.provision,
            image: 'registry.example/tofu:1.10',
            source: 'git::https://example.com/modules//demo',
          },
        },
      });
      expect(res.status).toBe(201);
    });

    it('lists the configured templates, without their source', async () => {
      const h = await withTemplates();
      const res = await h.send('get', '/v1/provisioning/templates');
      expect(res.status).toBe(200);
      const { source: _s, ...template } = TEMPLATES[0];
      expect(res.body).toEqual({ items: [template], runner: { ready: true } });
    });

    it('leaves internal variables out of the templates, refuses a request setting one with 400, and accepts one without it', async () => {
      const internal = [
        {
          ...TEMPLATES[0],
          variables: [
            ...TEMPLATES[0].variables,
            { name: 'data_dir', default: '/machine/data', internal: true },
          ],
        },
      ];
      const h = await harness({
        features: [
          mockServices.rootConfig.factory({
            data: { infrared: { provisioning: { templates: internal } } },
          }),
        ],
      });
      const listed = await h.send('get', '/v1/provisioning/templates');
      expect(listed.status).toBe(200);
      expect(listed.body.items[0].variables.map((v: any) => v.name)).toEqual([
        'name',
        'nodes',
      ]);
      expect(JSON.stringify(listed.body)).not.toContain('/machine/data');

      const refused = await h.send('post', '/v1/clusters', {
        body: {
          ...build,
          provision: {
            ...build.provision,
            variables: { name: 'built', data_dir: '/etc' },
          },
        },
      });
      expect(refused.status).toBe(400);
      expect(refused.body.error.errors).toEqual([
        {
          field: 'provision.variables.data_dir',
          message:
            'provision.variables.data_dir is internal to template local/demo: the platform sets it, a request may not',
        },
      ]);
      expect(h.provisioning.jobs).toEqual([]);

      // without it the request passes: the plan run fills the default (templateVariables)
      await createBuilt(h);
      expect(h.provisioning.jobs).toHaveLength(1);
    });

    it('says while a local environment prepares OpenTofu, from the runner status file, and is ready once it is, with no restart', async () => {
      const dir = fs.mkdtempSync(join(os.tmpdir(), 'runner-'));
      const runnerStatusFile = join(dir, 'prepare.json');
      const write = (state: string, extra = {}) =>
        fs.writeFileSync(
          runnerStatusFile,
          JSON.stringify({
            updatedAt: new Date().toISOString(),
            items: [
              { name: 'tofu', title: 'OpenTofu', state, ...extra },
              { name: 'argocd', title: 'Argo CD', state: 'waiting' },
            ],
          }),
        );
      write('building', { percent: 42, secondsLeft: 400 });
      const h = await harness({
        features: [
          mockServices.rootConfig.factory({
            data: {
              infrared: {
                provisioning: { templates: TEMPLATES, runnerStatusFile },
              },
            },
          }),
        ],
      });
      try {
        const preparing = await h.send('get', '/v1/provisioning/templates');
        expect(preparing.status).toBe(200);
        expect(preparing.body.runner).toEqual({
          ready: false,
          message: 'OpenTofu is being prepared (about 7 min left)',
          percent: 42,
          // less the seconds since the file was written
          secondsLeft: expect.any(Number),
        });
        expect(preparing.body.runner.secondsLeft).toBeGreaterThan(340);
        expect(preparing.body.runner.secondsLeft).toBeLessThanOrEqual(400);
        write('ready');
        const ready = await h.send('get', '/v1/provisioning/templates');
        expect(ready.body.runner).toEqual({ ready: true });
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });

    it('POST /v1/clusters with template and provision makes a Cluster without a connection, and its plan Job', async () => {
      const h = await withTemplates();
      const res = await createBuilt(h);
      expect(res.body).toMatchObject({
        name: 'built',
        connection: 'none',
        template: { module: 'local/demo', version: 'v1' },
        provision: {
          action: 'plan',
          credentialsSecret: 'built-creds',
          variables: { name: 'built' },
        },
      });
      const cluster = h.api.clusterStore.get('built')!;
      expect(cluster.spec.connection).toBeUndefined();
      expect(cluster.spec.provision).toEqual(build.provision);
      expect(h.api.secretStore.size).toBe(0);
      expect(h.provisioning.jobs.map(j => j.metadata.name)).toEqual([
        'tofu-built-1-plan',
      ]);
      const env = (h.provisioning.jobs[0] as any).metadata.labels;
      expect(env['infrared.darkshift.io/action']).toBe('plan');
      const view = await h.send('get', '/v1/clusters/built');
      expect(view.body.provision.status).toMatchObject({
        job: 'tofu-built-1-plan',
        phase: 'Waiting',
      });
    });

    it.each<[string, object, string, RegExp]>([
      [
        'an unknown template',
        { template: { module: 'aws/k3s-node', version: 'v0.2.3' } },
        'template',
        /unknown template aws\/k3s-node@v0.2.3: the portal offers local\/demo@v1/,
      ],
      [
        'template with a kubeconfig',
        { kubeconfig: CERT_KUBECONFIG },
        'template',
        /without kubeconfig or inCluster/,
      ],
      [
        'a bad action',
        { provision: { action: 'deploy', variables: { name: 'x' } } },
        'provision.action',
        /plan, apply, destroy/,
      ],
      [
        'variables not an object of strings',
        { provision: { variables: { name: 'x', nodes: 2 } } },
        'provision.variables.nodes',
        /must be a string/,
      ],
      [
        'a bad credentials Secret name',
        {
          provision: {
            variables: { name: 'x' },
            credentialsSecretRef: { name: 'Bad_Name' },
          },
        },
        'provision.credentialsSecretRef.name',
        /not a Secret name/,
      ],
    ])(
      'POST refuses %s with 400 naming the field, writing nothing',
      async (_what, change, field, message) => {
        const h = await withTemplates();
        const before = writes(h);
        const res = await h.send('post', '/v1/clusters', {
          body: { ...build, ...change },
        });
        expect(res.status).toBe(400);
        expect(res.body.error.errors.map((e: any) => e.field)).toContain(field);
        expect(res.body.error.message).toMatch(message);
        expect(writes(h)).toBe(before);
        expect(h.provisioning.jobs).toEqual([]);
      },
    );

    it('without templates configured, POST refuses every template', async () => {
      const h = await harness();
      const res = await h.send('post', '/v1/clusters', { body: build });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toMatch(
        /offers no template \(infrared.provisioning.templates\)/,
      );
    });

    it('PUT .../provision/action apply needs the billable acknowledgement (400, nothing written)', async () => {
      const h = await withTemplates();
      await createBuilt(h);
      const generation = h.api.clusterStore.get('built')!.metadata.generation;
      const res = await h.send('put', '/v1/clusters/built/provision/action', {
        body: { action: 'apply' },
      });
      expect(res.status).toBe(400);
      expect(res.body.error.errors).toEqual([
        expect.objectContaining({
          field: 'acknowledgeBillable',
          message: expect.stringMatching(/cost money until you destroy them/),
        }),
      ]);
      expect(
        h.api.clusterStore.get('built')!.spec.provision?.action,
      ).toBeUndefined();
      expect(h.api.clusterStore.get('built')!.metadata.generation).toBe(
        generation,
      );
    });

    it('PUT .../provision/action apply with the acknowledgement: a new generation and its apply Job, audited', async () => {
      const events: any[] = [];
      const h = await withTemplates([
        mockServices.auditor.mock({
          createEvent: async (o: any) => ({
            success: async (d?: any) => {
              events.push({ id: o.eventId, meta: { ...o.meta, ...d?.meta } });
            },
            fail: async () => undefined,
          }),
        }).factory,
      ]);
      await createBuilt(h);
      const res = await h.send('put', '/v1/clusters/built/provision/action', {
        body: { action: 'apply', acknowledgeBillable: true },
      });
      expect(res.status).toBe(200);
      expect(res.body.provision.action).toBe('apply');
      expect(events).toContainEqual({
        id: 'cluster-provision-action',
        meta: {
          cluster: 'built',
          action: 'apply',
          acknowledgeBillable: true,
          changed: true,
        },
      });
      // the plan Job has not finished: the apply Job waits for it
      await h.scheduler.triggerTask(PROVISIONING_TASK_ID);
      expect(h.provisioning.jobs.map(j => j.metadata.name)).toEqual([
        'tofu-built-1-plan',
      ]);
      h.provisioning.jobs[0].status = {
        conditions: [{ type: 'Complete', status: 'True' }],
      };
      await h.scheduler.triggerTask(PROVISIONING_TASK_ID);
      expect(h.provisioning.jobs.map(j => j.metadata.name)).toEqual([
        'tofu-built-1-plan',
        'tofu-built-2-apply',
      ]);
      // the same action again writes nothing
      const again = await h.send('put', '/v1/clusters/built/provision/action', {
        body: { action: 'apply', acknowledgeBillable: true },
      });
      expect(again.status).toBe(200);
      expect(h.api.clusterStore.get('built')!.metadata.generation).toBe(2);
    });

    it('PUT .../provision/action: 403 naming infrared.cluster.provision, 404 unknown, 409 not built', async () => {
      const denied = await withTemplates([
        mockServices.permissions.mock({
          authorize: async requests =>
            requests.map((r: any) => ({
              result:
                r.permission.name === 'infrared.cluster.provision'
                  ? AuthorizeResult.DENY
                  : AuthorizeResult.ALLOW,
            })),
        }).factory,
      ]);
      await createBuilt(denied);
      const res = await denied.send(
        'put',
        '/v1/clusters/built/provision/action',
        { body: { action: 'apply', acknowledgeBillable: true } },
      );
      expect(res.status).toBe(403);
      expect(res.body.error.message).toMatch(/infrared\.cluster\.provision/);
      expect(
        denied.api.clusterStore.get('built')!.spec.provision?.action,
      ).toBeUndefined();

      const h = await withTemplates();
      expect(
        (
          await h.send('put', '/v1/clusters/nope/provision/action', {
            body: { action: 'plan' },
          })
        ).status,
      ).toBe(404);
      const mgmt = await h.send(
        'put',
        '/v1/clusters/infrared-mgmt/provision/action',
        { body: { action: 'plan' } },
      );
      expect(mgmt.status).toBe(409);
      expect(mgmt.body.error.message).toMatch(/not built with OpenTofu/);
    });

    it("GET .../provision/log: the last Job's log with the credentials redacted", async () => {
      const h = await withTemplates();
      await h.api.secrets.create({
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: 'built-creds', namespace: 'infrared-tofu' },
        type: 'Opaque',
        data: {
          AWS_SECRET_ACCESS_KEY: Buffer.from('wJalrXUtnFEMI-EXAMPLE').toString(
            'base64',
          ),
        },
      });
      expect(
        (await h.send('get', '/v1/clusters/built/provision/log')).status,
      ).toBe(404);
      await createBuilt(h);
      h.provisioning.pods.push({
        metadata: {
          name: 'tofu-built-1-plan-x1',
          labels: { 'batch.kubernetes.io/job-name': 'tofu-built-1-plan' },
        },
        status: { phase: 'Running' },
      });
      h.provisioning.logs.set(
        'tofu-built-1-plan-x1',
        'Planning with key wJalrXUtnFEMI-EXAMPLE\nPlan: 1 to add\n',
      );
      const res = await h.send('get', '/v1/clusters/built/provision/log');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        job: 'tofu-built-1-plan',
        pod: 'tofu-built-1-plan-x1',
        log: 'Planning with key ***\nPlan: 1 to add\n',
      });
    });

    it('answers 503 without the management cluster', async () => {
      const h = await harness({ managed: false });
      expect(
        (
          await h.send('put', '/v1/clusters/x/provision/action', {
            body: { action: 'plan' },
          })
        ).status,
      ).toBe(503);
      expect((await h.send('get', '/v1/clusters/x/provision/log')).status).toBe(
        503,
      );
    });
  });

  // Last, after every other test here has recorded its answers.
  describe('all answers', () => {
    it('never carried a credential, and covered every operation of openapi.yaml', () => {
      expect(everyResponse.length).toBeGreaterThan(40);
      for (const { text } of everyResponse) {
        for (const secret of [TOKEN, CERT, KEY, CA, 'kind: Config']) {
          expect(text).not.toContain(secret);
        }
      }
      expect(openapi.unexercised()).toEqual([]);
    });
  });
});

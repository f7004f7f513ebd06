import {
  zoneCollisions,
  type OrganizationResource,
  type PlacementClusterFacts,
  type ProductResource,
  type ProductZone,
  type ReleaseResource,
  type ReleaseZoneStatus,
} from '@infrared-clusters/plugin-infrared-common';
import type { ArgoObject } from '@infrared-clusters/infrared-kube';
import { zoneApplicationHolders } from './application';
import { isGated, planRelease, type GateWorld } from './plan';
import { completePromotion, releaseStatusChanged } from './promotion';

const NS = 'ir-org-acme';
const NOW = '2026-11-30T12:00:00.000Z';

const product = (zones: ProductZone[]): ProductResource => ({
  apiVersion: 'infrared.darkshift.io/v1alpha1',
  kind: 'Product',
  metadata: { name: 'checkout', namespace: NS },
  spec: {
    displayName: 'Checkout',
    repos: [{ name: 'checkout' }],
    delivery: { zones },
  },
});
const RC: ProductZone = { name: 'checkout-rc' };
const PROD: ProductZone = {
  name: 'checkout-prod',
  cluster: 'edge-demo',
  approval: 'auto',
};
const acme: OrganizationResource = {
  apiVersion: 'infrared.darkshift.io/v1alpha1',
  kind: 'Organization',
  metadata: { name: 'acme' },
  spec: { displayName: 'ACME', clusterAllowlist: ['edge-demo'] },
};
const edge: PlacementClusterFacts = {
  name: 'edge-demo',
  registered: true,
  inCluster: false,
};
const release = (zones?: ReleaseZoneStatus[]): ReleaseResource => ({
  apiVersion: 'infrared.darkshift.io/v1alpha1',
  kind: 'Release',
  metadata: { name: 'checkout-v1', namespace: NS },
  spec: { productRef: { name: 'checkout' } },
  status: { phase: 'Promoting', ...(zones ? { zones } : {}) },
});
const app = (
  zone: string,
  ref: string,
  sync: string,
  health: string,
): ArgoObject => ({
  metadata: {
    name: `product-${zone}`,
    namespace: 'argocd',
    annotations: { 'infrared.darkshift.io/release': ref },
  },
  status: { sync: { status: sync }, health: { status: health } },
});

function world(
  over: Partial<GateWorld> & { zones?: ProductZone[] } = {},
): GateWorld {
  const { zones = [RC, PROD], ...rest } = over;
  return {
    products: new Map([[`${NS}/checkout`, product(zones)]]),
    orgs: [acme],
    clusters: new Map([['edge-demo', edge]]),
    appProjects: new Map([
      [
        'products',
        {
          name: 'products',
          destinations: [{ name: '*', server: '*', namespace: '*' }],
          // the zone Application's CreateNamespace=true needs it (Argo CD refuses it otherwise)
          clusterResourceWhitelist: [{ group: '', kind: 'Namespace' }],
        },
      ],
    ]),
    applications: new Map(),
    managementCluster: 'infrared-mgmt',
    project: 'products',
    now: NOW,
    ...rest,
  };
}
const healthy = (name: string): ReleaseZoneStatus => ({
  name,
  phase: 'Healthy',
  reason: 'Healthy',
  message: 'ok',
  healthyAt: '2026-11-30T11:00:00.000Z',
});
const phases = (plan: ReturnType<typeof planRelease>) =>
  (plan.status.zones ?? []).map(z => `${z.name}:${z.phase}:${z.reason}`);

describe('planRelease', () => {
  it.each<
    [
      string,
      ReleaseZoneStatus[] | undefined,
      Partial<GateWorld> & { zones?: ProductZone[] },
      string[],
      string | undefined,
      string,
    ]
  >([
    [
      'a new Release promotes the first zone; the next waits for it',
      undefined,
      {},
      [
        'checkout-rc:Pending:ManagementCluster',
        'checkout-prod:Pending:WaitingForZone',
      ],
      'checkout-rc',
      'Promoting',
    ],
    [
      'the second zone is promoted once the first is Healthy',
      [healthy('checkout-rc')],
      {},
      ['checkout-rc:Healthy:Healthy', 'checkout-prod:Pending:Registered'],
      'checkout-prod',
      'Promoting',
    ],
    [
      'Fails: not on the allowlist, shown even while an earlier zone is not Healthy',
      undefined,
      { orgs: [{ ...acme, spec: { ...acme.spec, clusterAllowlist: [] } }] },
      [
        'checkout-rc:Pending:ManagementCluster',
        'checkout-prod:Failed:NotOnAllowlist',
      ],
      'checkout-rc',
      'Promoting',
    ],
    [
      'Fails: not a Cluster Infrared knows',
      [healthy('checkout-rc')],
      { clusters: new Map() },
      ['checkout-rc:Healthy:Healthy', 'checkout-prod:Failed:UnknownCluster'],
      undefined,
      'Promoting',
    ],
    [
      'Fails: no Organization holds the namespace',
      [healthy('checkout-rc')],
      { orgs: [] },
      ['checkout-rc:Healthy:Healthy', 'checkout-prod:Failed:NoOrganization'],
      undefined,
      'Promoting',
    ],
    [
      'Waits: known but not Registered',
      [healthy('checkout-rc')],
      { clusters: new Map([['edge-demo', { ...edge, registered: false }]]) },
      ['checkout-rc:Healthy:Healthy', 'checkout-prod:Pending:NotRegistered'],
      undefined,
      'Promoting',
    ],
    [
      'Waits: the AppProject is missing',
      undefined,
      { appProjects: new Map() },
      [
        'checkout-rc:Pending:AppProjectMissing',
        'checkout-prod:Pending:WaitingForZone',
      ],
      undefined,
      'Promoting',
    ],
    [
      'Waits: the AppProject does not allow the workload cluster',
      [healthy('checkout-rc')],
      {
        appProjects: new Map([
          [
            'products',
            {
              name: 'products',
              destinations: [
                { server: 'https://kubernetes.default.svc', namespace: '*' },
              ],
            },
          ],
        ]),
      },
      [
        'checkout-rc:Healthy:Healthy',
        'checkout-prod:Pending:DestinationNotPermitted',
      ],
      undefined,
      'Promoting',
    ],
    [
      'a release zone waits for a human approval',
      [healthy('checkout-rc')],
      {
        zones: [
          RC,
          {
            name: 'checkout-prod',
            cluster: 'edge-demo',
            environment: 'release',
          },
        ],
      },
      [
        'checkout-rc:Healthy:Healthy',
        'checkout-prod:AwaitingApproval:ApprovalRequired',
      ],
      undefined,
      'AwaitingApproval',
    ],
    [
      'an approved release zone is promoted',
      [
        healthy('checkout-rc'),
        {
          name: 'checkout-prod',
          phase: 'AwaitingApproval',
          approvedBy: 'user:default/ada',
        },
      ],
      {
        zones: [
          RC,
          {
            name: 'checkout-prod',
            cluster: 'edge-demo',
            environment: 'release',
          },
        ],
      },
      ['checkout-rc:Healthy:Healthy', 'checkout-prod:Pending:Registered'],
      'checkout-prod',
      'Promoting',
    ],
    [
      'Syncing becomes Healthy when Argo CD reports this Release Synced and Healthy',
      [
        {
          name: 'checkout-rc',
          phase: 'Syncing',
          pullRequest: 1,
          pullRequestURL: 'u',
        },
      ],
      {
        applications: new Map([
          [
            'product-checkout-rc',
            app('checkout-rc', `${NS}/checkout-v1`, 'Synced', 'Healthy'),
          ],
        ]),
      },
      ['checkout-rc:Healthy:Healthy', 'checkout-prod:Pending:Registered'],
      'checkout-prod',
      'Promoting',
    ],
    [
      'Syncing stays while the Application runs an older Release',
      [{ name: 'checkout-rc', phase: 'Syncing' }],
      {
        applications: new Map([
          [
            'product-checkout-rc',
            app('checkout-rc', `${NS}/checkout-v0`, 'Synced', 'Healthy'),
          ],
        ]),
      },
      [
        'checkout-rc:Syncing:WaitingForArgoCD',
        'checkout-prod:Pending:WaitingForZone',
      ],
      undefined,
      'Promoting',
    ],
    [
      'Syncing stays while Argo CD reports Progressing',
      [{ name: 'checkout-rc', phase: 'Syncing' }],
      {
        applications: new Map([
          [
            'product-checkout-rc',
            app('checkout-rc', `${NS}/checkout-v1`, 'Synced', 'Progressing'),
          ],
        ]),
      },
      [
        'checkout-rc:Syncing:WaitingForArgoCD',
        'checkout-prod:Pending:WaitingForZone',
      ],
      undefined,
      'Promoting',
    ],
    [
      'every zone Healthy: Released',
      [healthy('checkout-rc'), { name: 'checkout-prod', phase: 'Syncing' }],
      {
        applications: new Map([
          [
            'product-checkout-prod',
            app('checkout-prod', `${NS}/checkout-v1`, 'Synced', 'Healthy'),
          ],
        ]),
      },
      ['checkout-rc:Healthy:Healthy', 'checkout-prod:Healthy:Healthy'],
      undefined,
      'Released',
    ],
    [
      'a closed pull request is not opened again',
      [
        {
          name: 'checkout-rc',
          phase: 'Failed',
          reason: 'PullRequestClosed',
          message: 'closed',
        },
      ],
      {},
      [
        'checkout-rc:Failed:PullRequestClosed',
        'checkout-prod:Pending:WaitingForZone',
      ],
      undefined,
      'Promoting',
    ],
  ])('%s', (_name, zones, over, expected, promoted, phase) => {
    const plan = planRelease(release(zones), world(over));
    expect(phases(plan)).toEqual(expected);
    expect(plan.promote?.zone.name).toBe(promoted);
    expect(plan.status.phase).toBe(phase);
  });

  it('checks an open pull request again instead of opening another', () => {
    const plan = planRelease(
      release([
        {
          name: 'checkout-rc',
          phase: 'Promoting',
          reason: 'PullRequestOpen',
          message: 'open',
          pullRequest: 4,
          pullRequestURL: 'https://example.test/pr/4',
        },
      ]),
      world({ appProjects: new Map() }),
    );
    expect(plan.promote?.pending).toEqual({
      number: 4,
      url: 'https://example.test/pr/4',
    });
    expect(phases(plan)[0]).toBe('checkout-rc:Promoting:PullRequestOpen');
  });

  it('sets healthyAt when a zone turns Healthy and keeps the pull request', () => {
    const plan = planRelease(
      release([
        {
          name: 'checkout-rc',
          phase: 'Syncing',
          pullRequest: 1,
          pullRequestURL: 'u',
          startedAt: 's',
        },
      ]),
      world({
        applications: new Map([
          [
            'product-checkout-rc',
            app('checkout-rc', `${NS}/checkout-v1`, 'Synced', 'Healthy'),
          ],
        ]),
      }),
    );
    expect(plan.status.zones![0]).toMatchObject({
      phase: 'Healthy',
      healthyAt: NOW,
      pullRequest: 1,
      pullRequestURL: 'u',
      startedAt: 's',
      environment: 'pre-release',
      approval: 'auto',
    });
  });

  it.each([
    [
      'its Product is missing',
      { products: new Map() },
      /Product ir-org-acme\/checkout not found/,
    ],
    ['its Product has no zones', { zones: [] }, /has no delivery zones/],
  ])('fails a Release when %s', (_name, over, message) => {
    const plan = planRelease(release(), world(over as any));
    expect(plan.status.phase).toBe('Failed');
    expect(plan.status.message).toMatch(message);
    expect(plan.promote).toBeUndefined();
  });

  it('says which zone the Release waits on', () => {
    const plan = planRelease(
      release([healthy('checkout-rc')]),
      world({
        clusters: new Map([['edge-demo', { ...edge, registered: false }]]),
      }),
    );
    expect(plan.status.message).toMatch(
      /^zone checkout-prod is Pending: cluster edge-demo is not Registered yet/,
    );
  });

  it('gates Promoting and AwaitingApproval Releases only', () => {
    const withPhase = (phase?: any) => ({ ...release(), status: { phase } });
    expect(
      [
        undefined,
        'Pending',
        'Building',
        'Tagged',
        'Promoting',
        'AwaitingApproval',
        'Released',
        'Failed',
      ].map(p => isGated(withPhase(p))),
    ).toEqual([false, false, false, false, true, true, false, false]);
  });
});

describe('completePromotion', () => {
  const planned = planRelease(release(), world());
  const status = planned.status;
  const promotion = planned.promote!;
  const result = (state: 'merged' | 'open' | 'closed') => ({
    result: {
      url: 'file:///gitops.git#pull/3',
      commit: 'a'.repeat(40),
      state,
      merged: state === 'merged',
      pullRequest: { number: 3, url: 'file:///gitops.git#pull/3' },
    },
  });
  it.each<[string, any, string, string]>([
    ['merged: Syncing', result('merged'), 'Syncing', 'WaitingForArgoCD'],
    ['open: Promoting', result('open'), 'Promoting', 'PullRequestOpen'],
    ['closed: Failed', result('closed'), 'Failed', 'PullRequestClosed'],
    [
      'publish error: tried again',
      { error: 'push refused' },
      'Pending',
      'PublishFailed',
    ],
    [
      'invalid Application: Failed',
      { error: 'bad', invalid: true },
      'Failed',
      'InvalidApplication',
    ],
  ])('%s', (_name, outcome, phase, reason) => {
    const next = completePromotion(status, promotion, outcome, NOW);
    expect(next.zones![0]).toMatchObject({
      name: 'checkout-rc',
      phase,
      reason,
    });
    expect(next.zones![1]).toEqual(status.zones![1]);
  });

  it('records the pull request and when promotion started', () => {
    const next = completePromotion(status, promotion, result('merged'), NOW);
    expect(next.zones![0]).toMatchObject({
      pullRequest: 3,
      pullRequestURL: 'file:///gitops.git#pull/3',
      startedAt: NOW,
    });
    expect(next.zones![0].message).toBe(
      'waiting for Argo CD to create Application product-checkout-rc in namespace argocd from registry/clusters/infrared-mgmt/components/product-checkout-rc.yaml',
    );
    expect(next.phase).toBe('Promoting');
  });
});

describe('releaseStatusChanged', () => {
  const a = {
    phase: 'Promoting' as const,
    message: 'm',
    zones: [{ name: 'z', phase: 'Pending' as const, reason: 'r' }],
  };
  it.each([
    ['the same status', a, false],
    [
      'keys in another order',
      {
        zones: [{ reason: 'r', phase: 'Pending' as const, name: 'z' }],
        message: 'm',
        phase: 'Promoting' as const,
      },
      false,
    ],
    ['another phase', { ...a, phase: 'Released' as const }, true],
    [
      'another zone reason',
      { ...a, zones: [{ ...a.zones[0], reason: 'x' }] },
      true,
    ],
  ])('%s', (_name, next, expected) => {
    expect(releaseStatusChanged(a, next)).toBe(expected);
  });
});

describe('planRelease: a zone whose name another Product keeps (issue 22.7)', () => {
  const older: ProductResource = {
    apiVersion: 'infrared.darkshift.io/v1alpha1',
    kind: 'Product',
    metadata: {
      name: 'shop',
      namespace: 'ir-org-globex',
      creationTimestamp: '2026-01-01T00:00:00Z',
    },
    spec: {
      displayName: 'Shop',
      repos: [{ name: 'shop' }],
      delivery: { zones: [{ name: 'checkout-rc' }] },
    },
  };
  const mine = {
    ...product([RC, PROD]),
    metadata: {
      name: 'checkout',
      namespace: NS,
      creationTimestamp: '2026-02-01T00:00:00Z',
    },
  };

  it('fails that zone with ZoneTaken naming the other Product, and promotes nothing', () => {
    const plan = planRelease(
      release(),
      world({
        products: new Map([
          [`${NS}/checkout`, mine],
          ['ir-org-globex/shop', older],
        ]),
        collisions: zoneCollisions([mine, older], 'infrared-mgmt'),
      }),
    );
    expect(phases(plan)).toEqual([
      'checkout-rc:Failed:ZoneTaken',
      'checkout-prod:Pending:WaitingForZone',
    ]);
    expect(plan.status.zones![0].message).toMatch(
      /^zone checkout-rc is taken by zone checkout-rc of Product ir-org-globex\/shop/,
    );
    expect(plan.promote).toBeUndefined();
  });

  it("keeps it when Argo CD's Application product-checkout-rc is this Product's (its labels)", () => {
    const holders = zoneApplicationHolders([
      {
        metadata: {
          name: 'product-checkout-rc',
          labels: {
            'infrared.darkshift.io/product': 'checkout',
            'infrared.darkshift.io/product-namespace': NS,
          },
        },
      },
    ]);
    const plan = planRelease(
      release(),
      world({
        collisions: zoneCollisions([mine, older], 'infrared-mgmt', holders),
      }),
    );
    expect(phases(plan)[0]).toBe('checkout-rc:Pending:ManagementCluster');
    expect(plan.promote?.zone.name).toBe('checkout-rc');
  });
});

import {
  latestRelease,
  organizationView,
  placementClusterFacts,
  productZoneViews,
  zoneApproval,
  zoneEnvironment,
} from './views';
import type { ClusterResource } from '../clusters/types';
import type { ProductResource, ReleaseResource } from './types';

const product: ProductResource = {
  apiVersion: 'infrared.darkshift.io/v1alpha1',
  kind: 'Product',
  metadata: { name: 'checkout', namespace: 'ir-org-acme' },
  spec: {
    displayName: 'Checkout',
    repos: [{ name: 'checkout' }],
    delivery: {
      zones: [
        { name: 'checkout-rc' },
        { name: 'checkout-prod', environment: 'release', cluster: 'edge-demo' },
      ],
    },
  },
};

const release = (name: string, created: string, productName = 'checkout') =>
  ({
    apiVersion: 'infrared.darkshift.io/v1alpha1',
    kind: 'Release',
    metadata: { name, namespace: 'ir-org-acme', creationTimestamp: created },
    spec: { productRef: { name: productName } },
  } as ReleaseResource);

describe('placement views', () => {
  it('environment and approval defaults', () => {
    expect(zoneEnvironment({ name: 'a' })).toBe('pre-release');
    expect(zoneApproval({ name: 'a' })).toBe('auto');
    expect(zoneApproval({ name: 'a', environment: 'release' })).toBe('human');
    expect(
      zoneApproval({ name: 'a', environment: 'release', approval: 'auto' }),
    ).toBe('auto');
  });

  it('lists zones with their effective cluster', () => {
    expect(productZoneViews(product, undefined, 'mgmt')).toEqual([
      {
        product: {
          namespace: 'ir-org-acme',
          name: 'checkout',
          displayName: 'Checkout',
        },
        zone: 'checkout-rc',
        environment: 'pre-release',
        cluster: 'mgmt',
        clusterSet: false,
      },
      {
        product: {
          namespace: 'ir-org-acme',
          name: 'checkout',
          displayName: 'Checkout',
        },
        zone: 'checkout-prod',
        environment: 'release',
        cluster: 'edge-demo',
        clusterSet: true,
      },
    ]);
  });

  it('an organization view', () => {
    expect(
      organizationView({
        apiVersion: 'v',
        kind: 'Organization',
        metadata: { name: 'acme' },
        spec: { displayName: 'ACME', clusterAllowlist: ['z', 'a'] },
      }),
    ).toEqual({
      name: 'acme',
      displayName: 'ACME',
      namespace: 'ir-org-acme',
      platform: false,
      clusterAllowlist: ['a', 'z'],
    });
  });

  it('cluster facts from the Registered condition', () => {
    const cluster = (status: 'True' | 'False', inCluster = false) =>
      ({
        apiVersion: 'v',
        kind: 'Cluster',
        metadata: { name: 'edge' },
        spec: { type: 'workload', connection: { inCluster } },
        status: {
          argoServer: 'https://x',
          conditions: [
            {
              type: 'Registered',
              status,
              reason: 'R',
              message: 'why',
              lastTransitionTime: '',
            },
          ],
        },
      } as ClusterResource);
    expect(placementClusterFacts(cluster('True'))).toEqual({
      name: 'edge',
      registered: true,
      inCluster: false,
      argoServer: 'https://x',
    });
    expect(placementClusterFacts(cluster('False', true))).toEqual({
      name: 'edge',
      registered: false,
      registeredMessage: 'why',
      inCluster: true,
      argoServer: 'https://x',
    });
  });

  it('the latest Release of the Product', () => {
    const releases = [
      release('r1', '2026-01-01T00:00:00Z'),
      release('r3', '2026-03-01T00:00:00Z'),
      release('r2', '2026-02-01T00:00:00Z'),
      release('other', '2026-04-01T00:00:00Z', 'payments'),
    ];
    expect(latestRelease(releases, product)?.metadata.name).toBe('r3');
    expect(latestRelease([], product)).toBeUndefined();
  });
});

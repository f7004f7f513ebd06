import {
  decideZonePlacement,
  zoneDestination,
  type PlacementClusterFacts,
  type ZonePlacementInput,
} from './decision';

const registered: PlacementClusterFacts = {
  name: 'edge-demo',
  registered: true,
  inCluster: false,
  argoServer: 'https://203.0.113.10:6443',
};
const connecting: PlacementClusterFacts = {
  name: 'edge-demo',
  registered: false,
  registeredMessage: 'waiting for Connected',
  inCluster: false,
};
const inClusterWorkload: PlacementClusterFacts = {
  name: 'local-zones',
  registered: true,
  inCluster: true,
};
const acme = { name: 'acme', clusterAllowlist: ['edge-demo', 'local-zones'] };
/** The zone Application's CreateNamespace=true needs Namespace on the whitelist. */
const namespaces = [{ group: '', kind: 'Namespace' }];
const everything = {
  name: 'products',
  destinations: [{ server: '*', name: '*', namespace: '*' }],
  clusterResourceWhitelist: namespaces,
};

function input(over: Partial<ZonePlacementInput>): ZonePlacementInput {
  return {
    zone: { name: 'checkout-prod', cluster: 'edge-demo' },
    productNamespace: 'ir-org-acme',
    org: acme,
    cluster: registered,
    managementCluster: 'infrared-mgmt',
    project: 'products',
    appProject: undefined,
    ...over,
  };
}

describe('decideZonePlacement: the seed table', () => {
  it.each<[string, Partial<ZonePlacementInput>, string, string, RegExp]>([
    [
      'not on the org allowlist',
      { org: { name: 'acme', clusterAllowlist: ['other'] } },
      'Fails',
      'NotOnAllowlist',
      /edge-demo is not on org acme's cluster allowlist \(allowed: other\)/,
    ],
    [
      'empty allowlist',
      { org: { name: 'acme', clusterAllowlist: [] } },
      'Fails',
      'NotOnAllowlist',
      /allowlist \(allowed: none\)/,
    ],
    [
      'not on the allowlist and unknown: the allowlist is checked first',
      { org: { name: 'acme', clusterAllowlist: [] }, cluster: undefined },
      'Fails',
      'NotOnAllowlist',
      /allowlist/,
    ],
    [
      'no Organization holds the namespace',
      { org: undefined },
      'Fails',
      'NoOrganization',
      /no Organization holds namespace ir-org-acme/,
    ],
    [
      'not a Cluster Infrared knows',
      { cluster: undefined },
      'Fails',
      'UnknownCluster',
      /edge-demo is not a Cluster Infrared knows/,
    ],
    [
      'known but not Registered',
      { cluster: connecting },
      'Waits',
      'NotRegistered',
      /not Registered yet \(waiting for Connected\); checked again every minute/,
    ],
    [
      'Registered',
      {},
      'Promotes',
      'Registered',
      /on org acme's cluster allowlist and Registered/,
    ],
    [
      'no cluster: the management cluster, no allowlist needed',
      {
        zone: { name: 'checkout-rc' },
        org: undefined,
        cluster: undefined,
      },
      'Promotes',
      'ManagementCluster',
      /runs on the management cluster infrared-mgmt/,
    ],
    [
      'a zone name that is not a namespace',
      { zone: { name: 'Checkout_Prod', cluster: 'edge-demo' } },
      'Fails',
      'InvalidZone',
      /not a namespace name/,
    ],
    [
      'an applicationPath outside the rules',
      {
        zone: {
          name: 'checkout-prod',
          cluster: 'edge-demo',
          applicationPath: '../escape.yaml',
        },
      },
      'Fails',
      'InvalidApplicationPath',
      /applicationPath "..\/escape.yaml" must not have/,
    ],
  ])('%s -> %s (%s)', (_name, over, decision, reason, message) => {
    const placement = decideZonePlacement(input(over));
    expect(placement.decision).toBe(decision);
    expect(placement.reason).toBe(reason);
    expect(placement.message).toMatch(message);
  });
});

describe('decideZonePlacement: the AppProject check', () => {
  it.each<[string, Partial<ZonePlacementInput>, string, string]>([
    ['AppProject missing', { appProject: null }, 'Waits', 'AppProjectMissing'],
    [
      'AppProject allows every destination',
      { appProject: everything },
      'Promotes',
      'Registered',
    ],
    [
      'AppProject allows only the management cluster (the products default)',
      {
        appProject: {
          name: 'products',
          destinations: [
            { server: 'https://kubernetes.default.svc', namespace: '*' },
          ],
        },
      },
      'Waits',
      'DestinationNotPermitted',
    ],
    [
      'AppProject lists the cluster by name and the zone namespace',
      {
        appProject: {
          name: 'products',
          destinations: [{ name: 'edge-demo', namespace: 'checkout-prod' }],
          clusterResourceWhitelist: namespaces,
        },
      },
      'Promotes',
      'Registered',
    ],
    [
      "AppProject lists the cluster's Argo CD server instead of its name",
      {
        appProject: {
          name: 'products',
          destinations: [
            { server: 'https://203.0.113.10:6443', namespace: 'checkout-*' },
          ],
          clusterResourceWhitelist: namespaces,
        },
      },
      'Promotes',
      'Registered',
    ],
    [
      'AppProject lists the cluster but another namespace',
      {
        appProject: {
          name: 'products',
          destinations: [{ name: 'edge-demo', namespace: 'payments' }],
        },
      },
      'Waits',
      'DestinationNotPermitted',
    ],
    [
      'AppProject permits only project-scoped clusters',
      {
        appProject: {
          ...everything,
          permitOnlyProjectScopedClusters: true,
        },
      },
      'Waits',
      'DestinationNotPermitted',
    ],
    [
      'the management cluster zone against the in-cluster destination',
      {
        zone: { name: 'checkout-rc' },
        cluster: undefined,
        appProject: {
          name: 'products',
          destinations: [{ name: 'in-cluster', namespace: 'checkout-rc' }],
          clusterResourceWhitelist: namespaces,
        },
      },
      'Promotes',
      'ManagementCluster',
    ],
    [
      'the destination allowed, but no clusterResourceWhitelist: Argo CD may not create the Namespace',
      { appProject: { ...everything, clusterResourceWhitelist: undefined } },
      'Waits',
      'NamespaceNotPermitted',
    ],
    [
      'Namespace whitelisted by globs',
      {
        appProject: {
          ...everything,
          clusterResourceWhitelist: [{ group: '*', kind: '*' }],
        },
      },
      'Promotes',
      'Registered',
    ],
    [
      'Namespace whitelisted for other names only',
      {
        appProject: {
          ...everything,
          clusterResourceWhitelist: [
            { group: '', kind: 'Namespace', name: 'payments-*' },
          ],
        },
      },
      'Waits',
      'NamespaceNotPermitted',
    ],
    [
      'Namespace whitelisted but blacklisted',
      {
        appProject: {
          ...everything,
          clusterResourceWhitelist: [{ group: '*', kind: '*' }],
          clusterResourceBlacklist: namespaces,
        },
      },
      'Waits',
      'NamespaceNotPermitted',
    ],
    [
      'Fails comes before the AppProject check',
      { cluster: undefined, appProject: null },
      'Fails',
      'UnknownCluster',
    ],
    [
      'Waits for registration comes before the AppProject check',
      { cluster: connecting, appProject: null },
      'Waits',
      'NotRegistered',
    ],
  ])('%s -> %s (%s)', (_name, over, decision, reason) => {
    const placement = decideZonePlacement(input(over));
    expect(placement.decision).toBe(decision);
    expect(placement.reason).toBe(reason);
  });

  it('names the missing destination and the project in the reason', () => {
    const placement = decideZonePlacement(
      input({ appProject: { name: 'products', destinations: [] } }),
    );
    expect(placement.message).toBe(
      "AppProject products does not allow destination name edge-demo, namespace checkout-prod: add it to the AppProject's spec.destinations, or Argo CD refuses to sync the Application",
    );
    expect(placement.missingDestination).toEqual({
      name: 'edge-demo',
      namespace: 'checkout-prod',
    });
  });
});

describe('zone destination and paths', () => {
  it.each<[string, Partial<ZonePlacementInput>, object, string]>([
    [
      'a kubeconfig cluster by name',
      {},
      { name: 'edge-demo', namespace: 'checkout-prod' },
      'registry/clusters/edge-demo/components/product-checkout-prod.yaml',
    ],
    [
      'an inCluster workload cluster by the in-cluster server',
      {
        zone: { name: 'checkout-prod', cluster: 'local-zones' },
        cluster: inClusterWorkload,
      },
      {
        server: 'https://kubernetes.default.svc',
        namespace: 'checkout-prod',
      },
      'registry/clusters/local-zones/components/product-checkout-prod.yaml',
    ],
    [
      'no cluster: the management cluster',
      { zone: { name: 'checkout-rc' }, cluster: undefined },
      { server: 'https://kubernetes.default.svc', namespace: 'checkout-rc' },
      'registry/clusters/infrared-mgmt/components/product-checkout-rc.yaml',
    ],
    [
      'a custom applicationPath',
      {
        zone: {
          name: 'checkout-prod',
          cluster: 'edge-demo',
          applicationPath: 'apps/edge/checkout.yaml',
        },
      },
      { name: 'edge-demo', namespace: 'checkout-prod' },
      'apps/edge/checkout.yaml',
    ],
  ])('%s', (_name, over, destination, path) => {
    const placement = decideZonePlacement(input(over));
    expect(placement.destination).toEqual(destination);
    expect(placement.applicationPath).toBe(path);
    expect(placement.project).toBe('products');
  });

  it('uses the Application name product-<zone> and the effective cluster', () => {
    const placement = decideZonePlacement(
      input({ zone: { name: 'checkout-rc' }, cluster: undefined }),
    );
    expect(placement.applicationName).toBe('product-checkout-rc');
    expect(placement.cluster).toBe('infrared-mgmt');
  });

  it('zoneDestination for an unknown cluster still names it', () => {
    expect(zoneDestination({ name: 'z', cluster: 'ghost' }, undefined)).toEqual(
      { name: 'ghost', namespace: 'z' },
    );
  });
});

import {
  appProjectFacts,
  appProjectPermits,
  appProjectPermitsClusterResource,
  globMatches,
} from './appProject';

describe('globMatches (gobwas/glob, as Argo CD uses it)', () => {
  it.each([
    ['*', 'anything/at-all', true],
    ['checkout-*', 'checkout-prod', true],
    ['checkout-*', 'payments', false],
    ['check?ut', 'checkout', true],
    ['[a-c]*', 'beta', true],
    ['[!a-c]*', 'beta', false],
    ['{edge,core}-*', 'core-1', true],
    ['{edge,core}-*', 'mid-1', false],
    ['https://10.0.0.1:6443', 'https://10.0.0.1:6443', true],
    ['https://*.example.com', 'https://a.b.example.com', true],
    ['a.b', 'axb', false],
    ['[unclosed', '[unclosed', false],
    ['', '', true],
    ['', 'x', false],
  ])('%j ~ %j -> %s', (pattern, value, expected) => {
    expect(globMatches(pattern, value)).toBe(expected);
  });
});

describe('appProjectPermits', () => {
  const dst = {
    name: 'edge-demo',
    server: 'https://203.0.113.10:6443',
    namespace: 'checkout-prod',
  };
  it.each<[string, Array<Record<string, string>>, boolean]>([
    ['no destinations', [], false],
    ['wildcards', [{ server: '*', namespace: '*' }], true],
    ['by name', [{ name: 'edge-demo', namespace: 'checkout-prod' }], true],
    [
      'by server',
      [{ server: 'https://203.0.113.10:6443', namespace: '*' }],
      true,
    ],
    ['other cluster', [{ name: 'edge-2', namespace: '*' }], false],
    ['other namespace', [{ name: 'edge-demo', namespace: 'payments' }], false],
    ['namespace glob', [{ name: 'edge-*', namespace: 'checkout-*' }], true],
    // The deny cases below follow Argo CD v3.6.1's isDestinationMatched; each was checked against
    // the real Argo CD by placement/appproject.argocd.integration.test.ts (infrared-backend).
    [
      'allowed, then a deny of the namespace by server',
      [
        { server: '*', namespace: '*' },
        { server: '*', namespace: '!checkout-prod' },
      ],
      false,
    ],
    [
      'allowed, then a deny of the namespace by name only: Argo CD checks a namespace deny by server, so it refuses nothing',
      [
        { name: '*', namespace: '*' },
        { name: '*', namespace: '!checkout-prod' },
      ],
      true,
    ],
    [
      'allowed, then a deny of another namespace',
      [
        { server: '*', namespace: '*' },
        { server: '*', namespace: '!kube-system' },
      ],
      true,
    ],
    [
      'allowed, then a deny of the cluster by name',
      [
        { name: '*', namespace: '*' },
        { name: '!edge-demo', namespace: '*' },
      ],
      false,
    ],
    [
      'allowed, then a deny of the cluster by server',
      [
        { name: '*', namespace: '*' },
        { server: '!https://203.0.113.10:6443', namespace: '*' },
      ],
      false,
    ],
    [
      'allowed, then a deny of the cluster in another namespace: refuses nothing here',
      [
        { name: '*', namespace: '*' },
        { name: '!edge-demo', namespace: 'payments' },
      ],
      true,
    ],
    [
      'a deny before the allow refuses as well',
      [
        { name: '!edge-demo', namespace: '*' },
        { name: '*', namespace: '*' },
      ],
      false,
    ],
    [
      'only a deny of another cluster',
      [{ name: '!edge-2', namespace: '*' }],
      true,
    ],
    [
      'only a deny of this cluster',
      [{ name: '!edge-demo', namespace: '*' }],
      false,
    ],
    [
      'only the in-cluster server (the default products AppProject)',
      [{ server: 'https://kubernetes.default.svc', namespace: '*' }],
      false,
    ],
  ])('%s -> %s', (_name, destinations, expected) => {
    expect(appProjectPermits({ destinations }, dst)).toBe(expected);
  });

  it('reads an AppProject object', () => {
    expect(
      appProjectFacts({
        metadata: { name: 'products' },
        spec: { destinations: [{ name: 'a', namespace: 'b', server: '' }] },
      }),
    ).toEqual({
      name: 'products',
      destinations: [{ name: 'a', namespace: 'b' }],
      permitOnlyProjectScopedClusters: undefined,
    });
    expect(appProjectFacts({})).toEqual({
      name: '',
      destinations: [],
      permitOnlyProjectScopedClusters: undefined,
    });
  });
});

describe('appProjectPermitsClusterResource (IsGroupKindNamePermitted, cluster-scoped)', () => {
  const ns = { group: '', kind: 'Namespace' };
  it.each<[string, object, boolean]>([
    ['no whitelist: none allowed', {}, false],
    ['empty whitelist', { clusterResourceWhitelist: [] }, false],
    ['Namespace listed', { clusterResourceWhitelist: [ns] }, true],
    ['globs', { clusterResourceWhitelist: [{ group: '*', kind: '*' }] }, true],
    [
      'another kind',
      { clusterResourceWhitelist: [{ group: '', kind: 'ClusterRole' }] },
      false,
    ],
    [
      'another group',
      {
        clusterResourceWhitelist: [
          { group: 'rbac.authorization.k8s.io', kind: '*' },
        ],
      },
      false,
    ],
    [
      'by name, matching',
      { clusterResourceWhitelist: [{ ...ns, name: 'checkout-*' }] },
      true,
    ],
    [
      'by name, another',
      { clusterResourceWhitelist: [{ ...ns, name: 'payments-*' }] },
      false,
    ],
    [
      'whitelisted and blacklisted',
      {
        clusterResourceWhitelist: [{ group: '*', kind: '*' }],
        clusterResourceBlacklist: [ns],
      },
      false,
    ],
    [
      'a malformed pattern matches nothing',
      { clusterResourceWhitelist: [{ group: '', kind: '[Namespace' }] },
      false,
    ],
  ])('%s -> %s', (_name, project, expected) => {
    expect(appProjectPermitsClusterResource(project, ns, 'checkout-prod')).toBe(
      expected,
    );
  });

  it('is read from the AppProject object', () => {
    const facts = appProjectFacts({
      metadata: { name: 'products' },
      spec: {
        clusterResourceWhitelist: [{ group: '', kind: 'Namespace' }],
        clusterResourceBlacklist: [],
      },
    });
    expect(facts.clusterResourceWhitelist).toEqual([
      { group: '', kind: 'Namespace' },
    ]);
    expect(facts.clusterResourceBlacklist).toBeUndefined();
    expect(
      appProjectPermitsClusterResource(
        facts,
        { group: '', kind: 'Namespace' },
        'x',
      ),
    ).toBe(true);
  });
});

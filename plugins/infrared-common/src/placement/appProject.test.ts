import { appProjectFacts, appProjectPermits, globMatches } from './appProject';

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
    [
      'allowed, then a deny of the namespace',
      [
        { name: '*', namespace: '*' },
        { name: '*', namespace: '!checkout-prod' },
      ],
      false,
    ],
    [
      'allowed, then a deny of another namespace',
      [
        { name: '*', namespace: '*' },
        { name: '*', namespace: '!kube-system' },
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

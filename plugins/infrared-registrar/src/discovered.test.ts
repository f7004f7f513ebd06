import {
  discoveredClustersFromSecrets,
  listDiscoveredClusters,
} from './discovered';
import {
  argo,
  ORPHANED,
  ownedLabels,
  SECRET_TYPE,
} from './__testUtils__/fixtures';

describe('listDiscoveredClusters', () => {
  const secrets = [
    argo('cluster-b', {
      labels: ownedLabels('b', 'ns-b'),
      data: { name: 'b', server: 'https://b:6443/' },
    }),
    argo('cluster-a', {
      labels: {
        ...ownedLabels('a', 'ns-a', { [ORPHANED]: 'cluster' }),
        [SECRET_TYPE]: '',
      },
      data: { name: 'a', server: 'https://a:6443' },
    }),
    argo('cluster-hand', {
      labels: { [SECRET_TYPE]: 'cluster' },
      data: { name: 'hand' },
    }),
  ];

  it('lists the owned registrations with their source and state', async () => {
    const calls: string[] = [];
    const got = await listDiscoveredClusters({
      list: async (ns, selector) => {
        calls.push(`${ns} ${selector}`);
        return secrets;
      },
    });
    expect(calls).toEqual([
      'argocd argocd-cluster-registrar/managed-by=cluster-registrar',
    ]);
    expect(got).toEqual([
      {
        name: 'a',
        secret: 'cluster-a',
        server: 'https://a:6443',
        sourceNamespace: 'ns-a',
        provider: 'k3k',
        state: 'demoted',
      },
      {
        name: 'b',
        secret: 'cluster-b',
        server: 'https://b:6443',
        sourceNamespace: 'ns-b',
        provider: 'k3k',
        state: 'active',
      },
    ]);
  });

  it('honours another prefix and managed-by value', () => {
    expect(
      discoveredClustersFromSecrets(secrets, {
        labelPrefix: 'x/',
        managedBy: 'y',
      }),
    ).toEqual([]);
  });
});

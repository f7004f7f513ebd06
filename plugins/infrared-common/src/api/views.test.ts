import type { ClusterResource } from '../clusters/types';
import { clusterView, discoveredClusterView, findCondition } from './views';

const connected = {
  type: 'Connected',
  status: 'True' as const,
  reason: 'Reached',
  message: 'v1.31.2, 3 nodes',
  lastTransitionTime: '2026-01-01T00:00:00Z',
};

function resource(
  spec: Partial<ClusterResource['spec']>,
  status = {},
): ClusterResource {
  return {
    apiVersion: 'infrared.darkshift.io/v1alpha1',
    kind: 'Cluster',
    metadata: {
      name: 'edge',
      creationTimestamp: '2026-01-01T00:00:00Z',
      uid: 'u',
    },
    spec: { type: 'workload', ...spec },
    status,
  };
}

describe('clusterView', () => {
  it('maps spec and status, saying how the cluster is reached but not with what', () => {
    const view = clusterView(
      resource(
        {
          flavor: 'k3s',
          region: 'us-east-1',
          connection: {
            kubeconfigSecretRef: {
              name: 'cluster-edge-kubeconfig',
              key: 'kubeconfig',
            },
          },
        },
        {
          conditions: [connected],
          nodes: 3,
          kubernetesVersion: 'v1.31.2',
          argoSecret: 'cluster-edge',
          gitopsPath: '',
        },
      ),
    );
    expect(view).toEqual({
      name: 'edge',
      type: 'workload',
      flavor: 'k3s',
      region: 'us-east-1',
      connection: 'kubeconfig',
      conditions: [connected],
      nodes: 3,
      kubernetesVersion: 'v1.31.2',
      argoSecret: 'cluster-edge',
      createdAt: '2026-01-01T00:00:00Z',
    });
    expect(JSON.stringify(view)).not.toContain('cluster-edge-kubeconfig');
    expect(findCondition(view, 'Connected')?.status).toBe('True');
    expect(findCondition(view, 'Registered')).toBeUndefined();
  });

  it.each([
    [{ inCluster: true }, 'inCluster'],
    [undefined, 'none'],
    [{}, 'none'],
  ])('reports connection %p as %s', (connection, kind) => {
    expect(clusterView(resource({ connection })).connection).toBe(kind);
  });

  it('keeps nodes: 0, which is a real count', () => {
    expect(clusterView(resource({}, { nodes: 0 })).nodes).toBe(0);
  });
});

describe('discoveredClusterView', () => {
  const input = {
    name: 'team-a-dev',
    server: 'https://team-a-dev.k3k.svc:6443',
    sourceNamespace: 'team-a',
    provider: 'k3k',
    state: 'active' as const,
  };

  it('marks the child cluster as discovered, with where it came from', () => {
    expect(discoveredClusterView(input)).toEqual({
      name: 'team-a-dev',
      type: 'workload',
      connection: 'none',
      conditions: [],
      createdAt: '',
      argoSecret: 'cluster-team-a-dev',
      argoServer: 'https://team-a-dev.k3k.svc:6443',
      discovered: {
        sourceNamespace: 'team-a',
        provider: 'k3k',
        state: 'active',
      },
    });
  });

  it('leaves out an unknown provider instead of showing an empty one', () => {
    expect(
      discoveredClusterView({ ...input, provider: '' }).discovered,
    ).not.toHaveProperty('provider');
  });

  it("gives a Registered condition from the registrar's last pass (issue 23.1)", () => {
    const unchanged = discoveredClusterView({
      ...input,
      secret: 'cluster-team-a-dev-2',
      lastPass: {
        outcome: 'unchanged',
        at: '2026-12-02T05:00:10Z',
        since: '2026-12-02T04:30:00Z',
      },
    });
    expect(unchanged.argoSecret).toBe('cluster-team-a-dev-2');
    expect(unchanged.discovered).toMatchObject({ registered: true });
    expect(unchanged.conditions).toEqual([
      {
        type: 'Registered',
        status: 'True',
        reason: 'Unchanged',
        message:
          "The registrar's last pass: unchanged: Argo CD Secret cluster-team-a-dev-2 is up to date for https://team-a-dev.k3k.svc:6443.",
        lastTransitionTime: '2026-12-02T04:30:00Z',
      },
    ]);

    const skipped = discoveredClusterView({
      ...input,
      server: '',
      registered: false,
      lastPass: {
        outcome: 'skipped',
        at: '2026-12-02T05:00:10Z',
        since: '2026-12-02T05:00:10Z',
        reason: 'no_kubeconfig',
        message: 'no kubeconfig Secret yet in namespace team-a',
      },
    });
    expect(skipped).not.toHaveProperty('argoSecret');
    expect(skipped).not.toHaveProperty('argoServer');
    expect(skipped.conditions[0]).toMatchObject({
      status: 'False',
      reason: 'Skipped',
      message:
        "The registrar's last pass: skipped (no_kubeconfig): no kubeconfig Secret yet in namespace team-a.",
    });
  });
});

import type { ClusterResource } from '../clusters/types';
import { clusterView, findCondition } from './views';

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

import { clusterForRequest } from './cluster';

describe('clusterForRequest', () => {
  it('refers a kubeconfig cluster to its Secret, never carrying the kubeconfig', () => {
    const cluster = clusterForRequest({
      name: 'edge',
      kubeconfig: 'secret-stuff',
      flavor: 'k3s',
      provider: 'aws',
      region: 'us-east-1',
    });
    expect(cluster).toEqual({
      apiVersion: 'infrared.darkshift.io/v1alpha1',
      kind: 'Cluster',
      metadata: {
        name: 'edge',
        labels: { 'app.kubernetes.io/managed-by': 'infrared' },
      },
      spec: {
        type: 'workload',
        flavor: 'k3s',
        provider: 'aws',
        region: 'us-east-1',
        connection: {
          kubeconfigSecretRef: {
            name: 'cluster-edge-kubeconfig',
            key: 'kubeconfig',
          },
        },
      },
    });
    expect(JSON.stringify(cluster)).not.toContain('secret-stuff');
  });

  it('marks an inCluster cluster and carries a server override', () => {
    const cluster = clusterForRequest({
      name: 'local',
      inCluster: true,
      server: 'https://h:6443',
    });
    expect(cluster.spec).toEqual({
      type: 'workload',
      server: 'https://h:6443',
      connection: { inCluster: true },
    });
  });
});

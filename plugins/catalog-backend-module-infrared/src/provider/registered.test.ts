import { mockServices } from '@backstage/backend-test-utils';
import type {
  EntityProviderConnection,
  EntityProviderMutation,
} from '@backstage/plugin-catalog-node';
import {
  argoClusterSecret,
  CLUSTER_NAME_LABEL,
  clusterForRequest,
  kubeconfigSecret,
  MANAGED_BY_LABEL,
} from '@infrared-clusters/plugin-infrared-common';
import { InMemoryManagementApi } from '@infrared-clusters/infrared-kube/testUtils';
import { InfraredClusterEntityProvider } from './InfraredClusterEntityProvider';

const SERVER = 'https://edge-a.argo.test:6443';

/**
 * A registered Cluster whose kubeconfig Secret holds text the kubeconfig parse refuses (unclosed
 * YAML): built from the kubeconfig, the entity has no endpoint; built from the Argo CD Secret
 * Infrared wrote, it has that Secret's server and CA.
 */
async function setup(argoLabels: Record<string, string> = {}) {
  const api = new InMemoryManagementApi();
  const mutations: EntityProviderMutation[] = [];
  const connection: EntityProviderConnection = {
    applyMutation: async m => {
      mutations.push(m);
    },
    refresh: async () => {},
  };
  const provider = new InfraredClusterEntityProvider({
    api,
    entity: { owner: 'group:default/platform-admins' },
    logger: mockServices.logger.mock(),
    taskRunner: { run: jest.fn() },
  });
  await provider.connect(connection);
  await api.secrets.create(
    kubeconfigSecret({ clusterName: 'edge-a', kubeconfig: 'clusters: [' }),
  );
  await api.clusters.create(
    clusterForRequest({
      name: 'edge-a',
      flavor: 'k3s',
      provider: 'local',
      kubeconfig: 'unused',
    } as any),
  );
  await api.secrets.create(
    argoClusterSecret({
      clusterName: 'edge-a',
      server: SERVER,
      argoConfig: {
        bearerToken: 'secret-token',
        tlsClientConfig: { insecure: false, caData: 'QVJHTy1DQQ==' },
      },
      labels: { [CLUSTER_NAME_LABEL]: 'edge-a', ...argoLabels },
    }),
  );
  const register = (status: { argoSecret?: string; argoServer?: string }) =>
    api.clusters.patchStatus('edge-a', status);
  return { api, mutations, provider, register };
}

const annotations = (m: EntityProviderMutation) =>
  (m.type === 'full' ? m.entities : m.added)[0].entity.metadata.annotations!;

describe('a registered Cluster', () => {
  it('has the server and CA of its Argo CD Secret, in a full and a delta mutation, without its kubeconfig', async () => {
    const { api, mutations, provider, register } = await setup();
    await register({ argoSecret: 'cluster-edge-a', argoServer: SERVER });
    const before = api.counter.total;
    await provider.fullMutation();
    // the LISTs of Clusters and of Argo CD Secrets; no read of the kubeconfig Secret
    expect(api.counter.total - before).toBe(2);
    await provider.deltaMutation('edge-a', 'registered');
    for (const m of mutations) {
      expect(annotations(m)['kubernetes.io/api-server']).toBe(SERVER);
      expect(
        annotations(m)['kubernetes.io/api-server-certificate-authority'],
      ).toBe('QVJHTy1DQQ==');
    }
    expect(JSON.stringify(mutations)).not.toContain('secret-token');
  });

  it.each([
    [
      'its status names no Argo CD Secret (not registered yet)',
      {},
      { argoServer: SERVER },
    ],
    [
      'its status has another server (spec.server or the kubeconfig changed since)',
      {},
      { argoSecret: 'cluster-edge-a', argoServer: 'https://other.test:6443' },
    ],
    [
      'the Secret is another tool’s',
      { [MANAGED_BY_LABEL]: 'Helm' },
      { argoSecret: 'cluster-edge-a', argoServer: SERVER },
    ],
  ])('is read from its kubeconfig when %s', async (_why, labels, status) => {
    const { mutations, provider, register } = await setup(labels);
    await register(status);
    await provider.fullMutation();
    // the kubeconfig is refused: no endpoint, so no server annotation
    expect(annotations(mutations[0])['kubernetes.io/api-server']).toBe(
      undefined,
    );
  });
});

import { mockServices } from '@backstage/backend-test-utils';
import type {
  EntityProviderConnection,
  EntityProviderMutation,
} from '@backstage/plugin-catalog-node';
import {
  clusterForRequest,
  kubeconfigSecret,
} from '@infrared-clusters/plugin-infrared-common';
import { renderKubeconfig } from '@infrared-clusters/plugin-infrared-node';
import { InMemoryManagementApi } from '@infrared-clusters/plugin-infrared-node/testUtils';
import { InfraredClusterEntityProvider } from './InfraredClusterEntityProvider';
import { readProviderConfig } from './config';

describe('InfraredClusterEntityProvider', () => {
  const setup = async () => {
    const api = new InMemoryManagementApi();
    const mutations: EntityProviderMutation[] = [];
    const connection: EntityProviderConnection = {
      applyMutation: async m => {
        mutations.push(m);
      },
      refresh: async () => {},
    };
    const run = jest.fn();
    const provider = new InfraredClusterEntityProvider({
      api,
      management: { server: 'https://127.0.0.1:6443' },
      entity: { owner: 'group:default/platform-admins' },
      logger: mockServices.logger.mock(),
      taskRunner: { run },
    });
    const register = async (name: string) => {
      await api.secrets.create(
        kubeconfigSecret({
          clusterName: name,
          kubeconfig: renderKubeconfig(name, {
            server: `https://${name}.test:6443`,
            caData: 'CA',
            token: 'secret-token',
          }),
        }),
      );
      await api.clusters.create(
        clusterForRequest({
          name,
          flavor: 'k3s',
          provider: 'local',
          kubeconfig: 'unused',
        } as any),
      );
    };
    return { api, mutations, connection, provider, register, run };
  };
  const names = (m: EntityProviderMutation) =>
    (m.type === 'full' ? m.entities : m.added).map(d => d.entity.metadata.name);

  it('schedules the full mutation when connected', async () => {
    const { provider, connection, run } = await setup();
    await provider.connect(connection);
    expect(run).toHaveBeenCalledWith({
      id: 'infrared-clusters:full-mutation',
      fn: expect.any(Function),
    });
  });

  it('full mutation: every Cluster, with 2 LISTs and no GET for the Secrets Infrared made', async () => {
    const { api, mutations, provider, connection, register } = await setup();
    await register('edge-a');
    await register('edge-b');
    await provider.connect(connection);
    const before = api.counter.total;
    const summary = await provider.fullMutation();
    expect(api.counter.total - before).toBe(2);
    expect(summary).toMatchObject({ type: 'full', added: 2, skipped: 0 });
    expect(mutations).toHaveLength(1);
    expect(mutations[0].type).toBe('full');
    expect(names(mutations[0]).sort()).toEqual(['edge-a', 'edge-b']);
    const entity = (mutations[0] as any).entities[0];
    expect(entity.locationKey).toBe(
      `infrared-clusters:${entity.entity.metadata.name}`,
    );
    expect(entity.entity.metadata.annotations['kubernetes.io/api-server']).toBe(
      `https://${entity.entity.metadata.name}.test:6443`,
    );
    expect(JSON.stringify(mutations)).not.toContain('secret-token');
  });

  it('a registration event: a delta adding the Cluster; a removal event: a delta removing it', async () => {
    const { api, mutations, provider, connection, register } = await setup();
    await provider.connect(connection);
    await register('edge-a');
    await provider.onClusterEvent({ cluster: 'edge-a', change: 'registered' });
    expect(mutations).toHaveLength(1);
    expect(mutations[0]).toMatchObject({ type: 'delta', removed: [] });
    expect(names(mutations[0])).toEqual(['edge-a']);

    await api.clusters.delete('edge-a');
    await provider.onClusterEvent({ cluster: 'edge-a', change: 'removed' });
    expect(mutations[1]).toEqual({
      type: 'delta',
      added: [],
      removed: [{ entityRef: 'resource:default/edge-a' }],
    });
  });

  it('ignores events before it is connected, and payloads that are not cluster events', async () => {
    const { mutations, provider, connection } = await setup();
    await provider.onClusterEvent({ cluster: 'edge-a', change: 'registered' });
    await provider.connect(connection);
    await provider.onClusterEvent({ name: 'edge-a' });
    await provider.onClusterEvent('edge-a');
    expect(mutations).toEqual([]);
  });

  it('a failed read leaves the catalog alone and is logged, not thrown', async () => {
    const { api, mutations, provider, connection } = await setup();
    await provider.connect(connection);
    api.failNext.set('clusters.get', new Error('GET cluster -> 503'));
    await expect(
      provider.onClusterEvent({ cluster: 'edge-a', change: 'registered' }),
    ).resolves.toBeUndefined();
    expect(mutations).toEqual([]);
  });
});

describe('readProviderConfig', () => {
  const read = (providers: object | undefined, app?: object) =>
    readProviderConfig(
      mockServices.rootConfig({
        data: {
          ...(providers
            ? { catalog: { providers: { infrared: providers } } }
            : {}),
          ...(app ? { app } : {}),
        },
      }),
    );

  it.each([
    {
      what: 'nothing configured',
      given: undefined,
      expected: {
        owner: 'group:default/platform-admins',
        schedule: { frequency: { minutes: 5 }, timeout: { minutes: 3 } },
      },
    },
    {
      what: 'the panel links from app.baseUrl',
      given: undefined,
      app: { baseUrl: 'https://portal.example.test/' },
      expected: {
        owner: 'group:default/platform-admins',
        clustersPageUrl: 'https://portal.example.test/clusters',
        schedule: { frequency: { minutes: 5 }, timeout: { minutes: 3 } },
      },
    },
    {
      what: 'owner, system and schedule',
      given: {
        owner: 'group:default/ops',
        system: 'platform',
        schedule: { frequency: { minutes: 1 }, timeout: { seconds: 30 } },
      },
      expected: {
        owner: 'group:default/ops',
        system: 'platform',
        schedule: { frequency: { minutes: 1 }, timeout: { seconds: 30 } },
      },
    },
  ])('$what', ({ given, expected, ...rest }) => {
    expect(read(given, (rest as { app?: object }).app)).toEqual(expected);
  });
});

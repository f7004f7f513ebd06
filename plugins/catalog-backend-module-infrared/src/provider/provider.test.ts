import { mockServices } from '@backstage/backend-test-utils';
import type {
  EntityProviderConnection,
  EntityProviderMutation,
} from '@backstage/plugin-catalog-node';
import {
  clusterForRequest,
  kubeconfigSecret,
} from '@infrared-clusters/plugin-infrared-common';
import { renderKubeconfig } from '@infrared-clusters/infrared-kube';
import { InMemoryManagementApi } from '@infrared-clusters/infrared-kube/testUtils';
import { InfraredClusterEntityProvider } from './InfraredClusterEntityProvider';
import { readDiscoveredConfig, readProviderConfig } from './config';

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

  it("full mutation: every Cluster, with 2 LISTs (Clusters, Argo CD Secrets) and a GET for each of the 2 unregistered Clusters' kubeconfig Secrets", async () => {
    const { api, mutations, provider, connection, register } = await setup();
    await register('edge-a');
    await register('edge-b');
    await provider.connect(connection);
    const before = api.counter.total;
    const summary = await provider.fullMutation();
    expect(api.counter.total - before).toBe(4);
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

  it('full mutation of many Clusters: other work of the process runs while it builds the entities', async () => {
    const { mutations, provider, connection, register } = await setup();
    for (let i = 0; i < 500; i++) await register(`edge-${i}`);
    await provider.connect(connection);
    // the in-memory API answers with promises only: on its own, nothing lets an I/O callback in
    let otherWorkRan = false;
    let ranBeforeApply: boolean | undefined;
    setImmediate(() => {
      otherWorkRan = true;
    });
    const apply = connection.applyMutation;
    connection.applyMutation = async m => {
      ranBeforeApply = otherWorkRan;
      return apply(m);
    };
    await provider.fullMutation();
    expect(names(mutations[0])).toHaveLength(500);
    // more than 20 unregistered Clusters: their kubeconfig Secrets from one LIST, each with its server
    const built = (mutations[0] as any).entities.map(
      (d: any) => d.entity.metadata.annotations['kubernetes.io/api-server'],
    );
    expect(
      built.filter((s: string) => /^https:\/\/edge-\d+\.test:6443$/.test(s)),
    ).toHaveLength(500);
    expect(ranBeforeApply).toBe(true);
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

  describe('the registrar children (issue 23.4)', () => {
    const child = (name: string, ns = 'tenants') => ({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: {
        name: `cluster-${name}`,
        namespace: 'argocd',
        labels: {
          'argocd.argoproj.io/secret-type': 'cluster',
          'argocd-cluster-registrar/managed-by': 'cluster-registrar',
          'argocd-cluster-registrar/cluster': name,
          'argocd-cluster-registrar/source-namespace': ns,
          'argocd-cluster-registrar/provider': 'k3k',
        },
      },
      data: {
        name: Buffer.from(name).toString('base64'),
        server: Buffer.from(`https://k3k-${name}.${ns}.svc:6443`).toString(
          'base64',
        ),
      },
    });
    const withChildren = async () => {
      const it = await setup();
      const provider = new InfraredClusterEntityProvider({
        api: it.api,
        management: { server: 'https://127.0.0.1:6443' },
        entity: { owner: 'group:default/platform-admins' },
        logger: mockServices.logger.mock(),
        taskRunner: { run: jest.fn() },
        discovered: {
          targetNamespace: 'argocd',
          labelPrefix: 'argocd-cluster-registrar/',
          managedBy: 'cluster-registrar',
        },
      });
      await provider.connect(it.connection);
      return { ...it, provider };
    };

    it('full mutation: each child is a Resource marked as a child; one named as a Cluster is left out', async () => {
      const { api, mutations, provider, register } = await withChildren();
      await register('edge-a');
      await api.secrets.create(child('sandbox') as any);
      await api.secrets.create(child('edge-a') as any);
      const summary = await provider.fullMutation();
      expect(summary).toMatchObject({ added: 2, skipped: 1 });
      const entities = (mutations[0] as any).entities.map((d: any) => d.entity);
      expect(entities.map((e: any) => e.metadata.name).sort()).toEqual([
        'edge-a',
        'sandbox',
      ]);
      const sandbox = entities.find((e: any) => e.metadata.name === 'sandbox');
      expect(sandbox.metadata.labels['infrared.darkshift.io/type']).toBe(
        'child',
      );
      expect(
        sandbox.metadata.annotations['infrared.darkshift.io/discovered-from'],
      ).toBe('tenants');
      const edge = entities.find((e: any) => e.metadata.name === 'edge-a');
      expect(edge.metadata.labels['infrared.darkshift.io/type']).toBe(
        'workload',
      );
    });

    it("a delta for a name no Cluster has keeps the child's entity instead of removing it", async () => {
      const { api, mutations, provider } = await withChildren();
      await api.secrets.create(child('sandbox') as any);
      await provider.deltaMutation('sandbox', 'removed');
      expect(mutations[0]).toMatchObject({ type: 'delta', removed: [] });
      expect(names(mutations[0])).toEqual(['sandbox']);
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

describe('readDiscoveredConfig', () => {
  const read = (registrar?: object) =>
    readDiscoveredConfig(
      mockServices.rootConfig({
        data: registrar ? { infrared: { registrar } } : {},
      }),
    );

  it('is undefined unless the registrar is enabled', () => {
    expect(read()).toBeUndefined();
    expect(read({ enabled: false, targetNamespace: 'x' })).toBeUndefined();
  });

  it("reads the registrar's namespace, label prefix and managed-by value, with its defaults", () => {
    expect(read({ enabled: true })).toEqual({
      targetNamespace: 'argocd',
      labelPrefix: 'argocd-cluster-registrar/',
      managedBy: 'cluster-registrar',
    });
    expect(
      read({
        enabled: true,
        targetNamespace: 'gitops',
        labelPrefix: 'acr/',
        managedBy: 'me',
      }),
    ).toEqual({
      targetNamespace: 'gitops',
      labelPrefix: 'acr/',
      managedBy: 'me',
    });
  });
});

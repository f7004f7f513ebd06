import { mockServices } from '@backstage/backend-test-utils';
import {
  clusterForRequest,
  kubeconfigSecret,
  type ClusterResource,
} from '@infrared-clusters/plugin-infrared-common';
import {
  InMemoryManagementApi,
  matchesLabelSelector,
} from '@infrared-clusters/infrared-kube/testUtils';
import { FakeProber, RecordingPublisher } from '../api/__testUtils__/harness';
import { kubeconfigText } from './__testUtils__/fixtures';
import { MANAGED_SELECTOR } from './observe';
import type { PassWatches, WatchedSet } from './passWatches';
import { ClusterReconciler } from './reconciler';

/**
 * Watches over the in-memory API's store, as a WatchedCache holds them: label-selected Secrets of
 * one namespace, every Cluster. `lag` keeps a copy from when it was set (a watch behind).
 */
function storeWatches(api: InMemoryManagementApi) {
  const state = { healthy: true };
  const set = <V>(all: () => V[], key: (v: V) => string): WatchedSet<V> => ({
    get isHealthy() {
      return state.healthy;
    },
    list: () => all().map(v => structuredClone(v)),
    get: (name, namespace) => {
      const found = all().find(v => key(v) === `${namespace ?? ''}/${name}`);
      return found && structuredClone(found);
    },
  });
  const secrets = (namespace: string) =>
    set(
      () =>
        [...api.secretStore.values()].filter(
          s =>
            s.metadata.namespace === namespace &&
            matchesLabelSelector(s.metadata.labels, MANAGED_SELECTOR),
        ),
      s => `${s.metadata.namespace}/${s.metadata.name}`,
    );
  const watches: PassWatches = {
    clusters: set(
      () => [...api.clusterStore.values()],
      (c: ClusterResource) => `/${c.metadata.name}`,
    ),
    kubeconfigs: secrets('infrared'),
    argos: secrets('argocd'),
  };
  return { watches, state };
}

function setup() {
  const api = new InMemoryManagementApi();
  const publisher = new RecordingPublisher();
  const { watches, state } = storeWatches(api);
  const reconciler = new ClusterReconciler({
    api,
    prober: new FakeProber(),
    publisher,
    managementCluster: 'infrared-mgmt',
    logger: mockServices.logger.mock(),
    watches,
  });
  return { api, publisher, reconciler, state, watches };
}

async function addCluster(api: InMemoryManagementApi, name: string) {
  await api.secrets.create(
    kubeconfigSecret({ clusterName: name, kubeconfig: kubeconfigText() }),
  );
  return api.clusters.create(
    clusterForRequest({ name, kubeconfig: kubeconfigText() }),
  );
}

describe('ClusterReconciler reading from watches (issue 25: CPU at rest)', () => {
  it('makes the management cluster and registers a cluster with no LIST; a steady pass sends no request', async () => {
    const { api, publisher, reconciler } = setup();
    await addCluster(api, 'edge');
    const first = await reconciler.reconcileAll();
    expect(first).toMatchObject({ clusters: 2, published: 1, failed: 0 });
    expect(first.requestsByVerb.LIST).toBeUndefined();
    expect(api.clusterStore.get('infrared-mgmt')?.spec.type).toBe('management');
    expect(publisher.changes.map(c => c.key)).toEqual(['cluster-edge']);
    expect(api.secretStore.has('argocd/cluster-edge')).toBe(true);

    const steady = await reconciler.reconcileAll();
    expect(steady).toMatchObject({
      clusters: 2,
      requests: 0,
      requestsByVerb: {},
      failed: 0,
    });
  });

  it('restores a deleted Argo CD Secret in the next pass, with no LIST', async () => {
    const { api, reconciler } = setup();
    await addCluster(api, 'edge');
    await reconciler.reconcileAll();
    const right = api.secretStore.get('argocd/cluster-edge')!;
    await reconciler.reconcileAll();

    api.secretStore.delete('argocd/cluster-edge');
    const pass = await reconciler.reconcileAll();
    expect(pass.secretWrites).toBe(1);
    expect(pass.requestsByVerb.LIST).toBeUndefined();
    expect(api.secretStore.get('argocd/cluster-edge')?.data).toEqual(
      right.data,
    );
  });

  it('LISTs while a watch is not healthy (not synced, or broken), and reads the watches again after', async () => {
    const { api, reconciler, state } = setup();
    await addCluster(api, 'edge');
    await reconciler.reconcileAll();
    state.healthy = false;
    const listed = await reconciler.reconcileAll();
    expect(listed.requestsByVerb).toEqual({ LIST: 3 });
    state.healthy = true;
    const watched = await reconciler.reconcileAll();
    expect(watched.requestsByVerb).toEqual({});
  });

  it('writes nothing from a stale read: the write loses the race and the Cluster is read again with GETs', async () => {
    const { api, reconciler, watches } = setup();
    await addCluster(api, 'edge');
    await reconciler.reconcileAll();
    const right = api.secretStore.get('argocd/cluster-edge')!;
    // someone breaks the Secret and someone else (another replica) restores it; this process's
    // watch is still at the broken version
    const broken = await api.secrets.replace({
      ...right,
      data: {
        ...right.data,
        server: Buffer.from('https://x').toString('base64'),
      },
    });
    const restored = await api.secrets.replace({ ...broken, data: right.data });
    watches.argos = { ...watches.argos, get: () => structuredClone(broken) };

    const pass = await reconciler.reconcileAll();
    expect(pass).toMatchObject({ failed: 0, secretWrites: 0 });
    expect(pass.requestsByVerb.PUT).toBe(1); // the refused write
    expect(api.secretStore.get('argocd/cluster-edge')).toEqual(restored);
  });
});

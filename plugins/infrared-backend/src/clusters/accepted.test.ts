import { mockServices } from '@backstage/backend-test-utils';
import {
  clusterForRequest,
  kubeconfigSecret,
} from '@infrared-clusters/plugin-infrared-common';
import { InMemoryManagementApi } from '@infrared-clusters/infrared-kube/testUtils';
import { FakeProber, RecordingPublisher } from '../api/__testUtils__/harness';
import { kubeconfigText } from './__testUtils__/fixtures';
import {
  ACCEPTED_AT_ANNOTATION,
  ACCEPTED_FAST_PATH_MS,
  stampAccepted,
} from './accepted';
import { ClusterService } from './ClusterService';
import { ClusterReconciler } from './reconciler';

const NOW = new Date('2026-12-02T09:00:00Z');

function setup() {
  const api = new InMemoryManagementApi();
  const publisher = new RecordingPublisher();
  const reconciler = new ClusterReconciler({
    api,
    prober: new FakeProber(),
    publisher,
    managementCluster: 'infrared-mgmt',
    logger: mockServices.logger.mock(),
    clock: () => NOW,
  });
  return { api, publisher, reconciler };
}

/** A Cluster as another replica's API made it, accepted `ageMs` before NOW. */
async function acceptedElsewhere(
  api: InMemoryManagementApi,
  name: string,
  ageMs: number,
) {
  await api.secrets.create(
    kubeconfigSecret({ clusterName: name, kubeconfig: kubeconfigText() }),
  );
  await api.clusters.create(
    stampAccepted(
      clusterForRequest({ name, kubeconfig: kubeconfigText() }),
      new Date(NOW.getTime() - ageMs),
    ),
  );
}

const keys = (publisher: RecordingPublisher) =>
  publisher.changes.map(c => c.key).sort();

describe('a Cluster a replica accepted just now (two replicas, issue 25)', () => {
  it('is left by a pass over every Cluster to the fast path of the replica that accepted it', async () => {
    const { api, publisher, reconciler } = setup();
    await acceptedElsewhere(api, 'fresh', 5_000);
    await acceptedElsewhere(api, 'settled', ACCEPTED_FAST_PATH_MS + 1);
    const pass = await reconciler.reconcileAll();
    // before: both published by this pass, 'fresh' a second time beside its fast path's batch
    expect(keys(publisher)).toEqual(['cluster-settled']);
    // infrared-mgmt (made by the pass) and settled
    expect(pass.clusters).toBe(2);
    expect(api.secretStore.has('argocd/cluster-fresh')).toBe(false);
    // its fast path (a pass over the named Cluster) registers it
    await reconciler.reconcile({ names: ['fresh'] });
    expect(keys(publisher)).toEqual(['cluster-fresh', 'cluster-settled']);
  });

  it('is reconciled by every pass once its fast path wrote its status', async () => {
    const { api, publisher, reconciler } = setup();
    await acceptedElsewhere(api, 'fresh', 5_000);
    await reconciler.reconcile({ names: ['fresh'] });
    await api.secrets.delete('argocd', 'cluster-fresh');
    await reconciler.reconcileAll();
    // the pass saw it (the Argo CD Secret it lost is written again)
    expect(api.secretStore.has('argocd/cluster-fresh')).toBe(true);
    expect(keys(publisher)).toEqual(['cluster-fresh']);
  });

  it('is taken over by the first pass after ACCEPTED_FAST_PATH_MS (the replica stopped before its pass)', async () => {
    const { api, publisher, reconciler } = setup();
    await acceptedElsewhere(api, 'orphan', ACCEPTED_FAST_PATH_MS);
    await reconciler.reconcileAll();
    expect(keys(publisher)).toEqual(['cluster-orphan']);
  });

  it('is stamped by ClusterService when it accepts a registration', async () => {
    const api = new InMemoryManagementApi();
    const service = new ClusterService({
      api,
      managementCluster: 'infrared-mgmt',
      logger: mockServices.logger.mock(),
    });
    const before = Date.now();
    await service.register({ name: 'edge', kubeconfig: kubeconfigText() });
    const stamp =
      api.clusterStore.get('edge')!.metadata.annotations?.[
        ACCEPTED_AT_ANNOTATION
      ];
    expect(Date.parse(stamp!)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(stamp!)).toBeLessThanOrEqual(Date.now());
  });
});

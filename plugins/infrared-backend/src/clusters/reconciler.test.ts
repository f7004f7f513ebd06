import { mockServices } from '@backstage/backend-test-utils';
import {
  clusterForRequest,
  kubeconfigSecret,
  type ClusterResource,
} from '@infrared-clusters/plugin-infrared-common';
import { KubeApiError } from '@infrared-clusters/infrared-kube';
import { InMemoryManagementApi } from '@infrared-clusters/infrared-kube/testUtils';
import { FakeProber, RecordingPublisher } from '../api/__testUtils__/harness';
import { kubeconfigText } from './__testUtils__/fixtures';
import { stampAccepted } from './accepted';
import { REGISTERED_FILES_ANNOTATION } from './plan';
import { ClusterReconciler } from './reconciler';
import { BatchingPublisher } from '../gitops';

function setup() {
  const api = new InMemoryManagementApi();
  const prober = new FakeProber();
  const publisher = new RecordingPublisher();
  const reconciler = new ClusterReconciler({
    api,
    prober,
    publisher,
    managementCluster: 'infrared-mgmt',
    logger: mockServices.logger.mock(),
  });
  return { api, prober, publisher, reconciler };
}

async function addCluster(api: InMemoryManagementApi, name: string) {
  await api.secrets.create(
    kubeconfigSecret({ clusterName: name, kubeconfig: kubeconfigText() }),
  );
  return api.clusters.create(
    clusterForRequest({ name, kubeconfig: kubeconfigText() }),
  );
}

const condition = (c: ClusterResource | undefined, type: string) =>
  c?.status?.conditions?.find(x => x.type === type);

describe('ClusterReconciler', () => {
  it('makes the management cluster when it is missing, once', async () => {
    const { api, reconciler } = setup();
    await reconciler.reconcileAll();
    await reconciler.reconcileAll();
    const mgmt = api.clusterStore.get('infrared-mgmt')!;
    expect(mgmt.spec).toEqual({
      type: 'management',
      connection: { inCluster: true },
    });
    expect(condition(mgmt, 'Registered')?.status).toBe('True');
    expect(api.counter.byVerb().POST).toBe(1);
  });

  it('registers a cluster in one pass and then sends only its three LISTs', async () => {
    const { api, publisher, reconciler } = setup();
    await addCluster(api, 'edge');
    const first = await reconciler.reconcileAll();
    // the management cluster publishes nothing: its registry is the gitops repo's root
    expect(first).toMatchObject({ clusters: 2, published: 1, failed: 0 });
    expect(publisher.changes.map(c => c.key)).toEqual(['cluster-edge']);
    const edge = api.clusterStore.get('edge')!;
    expect(condition(edge, 'Connected')?.status).toBe('True');
    expect(condition(edge, 'Registered')?.status).toBe('True');
    // The merged commit and the branch it is on (the publisher's default branch), for the page.
    expect(edge.status?.pullRequest).toEqual({
      url: 'https://git.example/pull/1',
      number: 1,
      commit: 'c1',
      merged: true,
      branch: 'main',
    });
    expect(edge.metadata.annotations?.[REGISTERED_FILES_ANNOTATION]).toMatch(
      /^[0-9a-f]{32}$/,
    );
    expect(api.secretStore.has('argocd/cluster-edge')).toBe(true);

    const second = await reconciler.reconcileAll();
    expect(second).toMatchObject({
      requests: 3,
      requestsByVerb: { LIST: 3 },
      statusWrites: 0,
      secretWrites: 0,
      published: 0,
    });
    expect(
      publisher.changes.filter(c => c.key === 'cluster-edge'),
    ).toHaveLength(1);
  });

  it('sends a constant number of requests whatever the number of clusters', async () => {
    const { api, reconciler } = setup();
    for (let i = 0; i < 25; i++) await addCluster(api, `edge-${i}`);
    await reconciler.reconcileAll();
    const settled = await reconciler.reconcileAll();
    expect(settled.clusters).toBe(26);
    expect(settled.requests).toBe(3);
  });

  it('publishes the registrations of one pass as one batched change, each cluster Registered', async () => {
    const { api, prober, publisher: recording } = setup();
    const reconciler = new ClusterReconciler({
      api,
      prober,
      publisher: new BatchingPublisher(recording, { maxFilesPerChange: 300 }),
      managementCluster: 'infrared-mgmt',
      logger: mockServices.logger.mock(),
    });
    const names = Array.from({ length: 30 }, (_, i) => `edge-${i}`);
    for (const name of names) await addCluster(api, name);
    const pass = await reconciler.reconcileAll();
    expect(pass).toMatchObject({ clusters: 31, published: 30, failed: 0 });
    // 30 registrations, far fewer changes: the first may go alone before the others arrive
    expect(recording.changes.length).toBeLessThanOrEqual(3);
    const published = recording.changes.flatMap(c => Object.keys(c.files));
    expect(published).toHaveLength(120); // 4 files per registration
    for (const name of names) {
      const cluster = api.clusterStore.get(name);
      expect(condition(cluster, 'Registered')?.status).toBe('True');
      expect(cluster?.status?.pullRequest?.merged).toBe(true);
    }
  });

  it('retries a status write that lost a race, from a fresh read', async () => {
    const { api, reconciler } = setup();
    await addCluster(api, 'edge');
    api.failNext.set(
      'clusters.replaceStatus',
      new KubeApiError(409, 'Conflict', 'the object has been modified'),
    );
    const pass = await reconciler.reconcileAll();
    expect(pass.failed).toBe(0);
    expect(condition(api.clusterStore.get('edge'), 'Connected')?.status).toBe(
      'True',
    );
  });

  it("shows a publisher's error in Registered and tries again on the next pass", async () => {
    const { api, publisher, reconciler } = setup();
    await addCluster(api, 'edge');
    publisher.failWith = new Error(
      'gitops: GitHub refused the push: protected branch',
    );
    await reconciler.reconcileAll();
    expect(condition(api.clusterStore.get('edge'), 'Registered')).toMatchObject(
      {
        status: 'False',
        reason: 'PublishFailed',
        message: 'gitops: GitHub refused the push: protected branch',
      },
    );
    publisher.failWith = undefined;
    await reconciler.reconcileAll();
    expect(condition(api.clusterStore.get('edge'), 'Registered')?.status).toBe(
      'True',
    );
  });

  it('waits with Registered until the cluster answers', async () => {
    const { api, prober, publisher, reconciler } = setup();
    await addCluster(api, 'edge');
    prober.result = { ok: false, reason: 'Unreachable', message: 'down' };
    await reconciler.reconcileAll();
    expect(condition(api.clusterStore.get('edge'), 'Registered')?.reason).toBe(
      'WaitingForConnection',
    );
    expect(publisher.changes).toHaveLength(0);
    expect(api.secretStore.has('argocd/cluster-edge')).toBe(false);
  });

  it('says why in Registered when the Argo CD Secret cannot be written', async () => {
    const { api, publisher, reconciler } = setup();
    await addCluster(api, 'edge');
    await api.clusters.create({
      ...clusterForRequest({ name: 'infrared-mgmt', inCluster: true }),
      spec: { type: 'management', connection: { inCluster: true } },
    });
    api.failNext.set(
      'secrets.create',
      new KubeApiError(
        403,
        'Forbidden',
        'CREATE secret argocd/cluster-edge: forbidden',
      ),
    );
    await reconciler.reconcileAll();
    expect(condition(api.clusterStore.get('edge'), 'Registered')).toMatchObject(
      {
        status: 'False',
        reason: 'ArgoSecretFailed',
        message: expect.stringContaining('forbidden'),
      },
    );
    expect(publisher.changes).toEqual([]);
  });

  it.each([
    ['by hand', {}],
    [
      'by the registrar',
      {
        'argocd-cluster-registrar/managed-by': 'cluster-registrar',
        'argocd-cluster-registrar/source-namespace': 'k3k-edge',
      },
    ],
  ])(
    'never writes an Argo CD Secret made %s, in a pass or after an API write',
    async (_who, labels) => {
      const { api, publisher, reconciler } = setup();
      const foreign = await api.secrets.create({
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: {
          name: 'cluster-edge',
          namespace: 'argocd',
          labels: { 'argocd.argoproj.io/secret-type': 'cluster', ...labels },
        },
        type: 'Opaque',
        stringData: { name: 'edge', server: 'https://203.0.113.9:6443' },
      });
      await addCluster(api, 'edge');
      for (const run of [
        () => reconciler.reconcileAll(),
        () => reconciler.reconcileOne('edge'),
        () => reconciler.reconcileAll(),
      ]) {
        await run();
        expect(api.secretStore.get('argocd/cluster-edge')).toEqual(foreign);
        expect(
          condition(api.clusterStore.get('edge'), 'Registered'),
        ).toMatchObject({ status: 'False', reason: 'ArgoSecretConflict' });
      }
      expect(publisher.changes).toEqual([]);
      expect(api.clusterStore.get('edge')!.status?.argoSecret).toBeUndefined();
    },
  );

  it('does not take over a Secret someone else makes between its read and its create', async () => {
    const { api, reconciler } = setup();
    await addCluster(api, 'edge');
    const create = api.secrets.create.bind(api.secrets);
    let raced = false;
    api.secrets.create = async secret => {
      if (!raced && secret.metadata.name === 'cluster-edge') {
        raced = true;
        await create({
          ...secret,
          metadata: {
            name: 'cluster-edge',
            namespace: 'argocd',
            labels: { 'app.kubernetes.io/managed-by': 'Helm' },
          },
          stringData: { name: 'edge', server: 'https://203.0.113.9:6443' },
        });
      }
      return create(secret);
    };
    await reconciler.reconcileAll();
    expect(raced).toBe(true);
    const secret = api.secretStore.get('argocd/cluster-edge')!;
    expect(secret.metadata.labels).toEqual({
      'app.kubernetes.io/managed-by': 'Helm',
    });
    expect(condition(api.clusterStore.get('edge'), 'Registered')).toMatchObject(
      {
        status: 'False',
        reason: 'ArgoSecretConflict',
        message: expect.stringContaining('another tool, Helm'),
      },
    );
  });

  it('restores an Argo CD Secret that lost its label (found by its name on create)', async () => {
    const { api, reconciler } = setup();
    await addCluster(api, 'edge');
    await reconciler.reconcileAll();
    const secret = api.secretStore.get('argocd/cluster-edge')!;
    api.secretStore.set('argocd/cluster-edge', {
      ...secret,
      metadata: { ...secret.metadata, labels: {} },
      data: {
        ...secret.data,
        server: Buffer.from('https://x:1').toString('base64'),
      },
    });
    await reconciler.reconcileAll();
    const fixed = api.secretStore.get('argocd/cluster-edge')!;
    expect(fixed.metadata.labels?.['app.kubernetes.io/managed-by']).toBe(
      'infrared',
    );
    expect(fixed.data).toEqual(secret.data);
  });

  it('goes on with the other clusters when one fails', async () => {
    const { api, reconciler } = setup();
    await addCluster(api, 'a');
    await addCluster(api, 'b');
    api.failNext.set(
      'clusters.replaceStatus',
      new KubeApiError(500, 'InternalError', 'etcdserver: request timed out'),
    );
    const pass = await reconciler.reconcileAll();
    expect(pass.failed).toBe(1);
    const registered = ['a', 'b', 'infrared-mgmt'].filter(
      n => condition(api.clusterStore.get(n), 'Registered')?.status === 'True',
    );
    expect(registered).toHaveLength(2);
    // The next pass finishes the one that failed.
    expect((await reconciler.reconcileAll()).failed).toBe(0);
    expect(condition(api.clusterStore.get('a'), 'Registered')?.status).toBe(
      'True',
    );
    expect(condition(api.clusterStore.get('b'), 'Registered')?.status).toBe(
      'True',
    );
  });

  it('stops a pass when its signal is aborted', async () => {
    const { api, reconciler } = setup();
    for (let i = 0; i < 5; i++) await addCluster(api, `edge-${i}`);
    const controller = new AbortController();
    controller.abort();
    const pass = await reconciler.reconcileAll(controller.signal);
    expect(pass.statusWrites).toBe(0);
  });

  describe('requeues a Cluster whose write lost a race: read again with GETs, planned again', () => {
    const conflict = () =>
      new KubeApiError(409, 'Conflict', 'the object has been modified');

    it('an Argo CD Secret replaced from a stale read', async () => {
      const { api, publisher, reconciler } = setup();
      await addCluster(api, 'edge');
      await reconciler.reconcileAll();
      const right = api.secretStore.get('argocd/cluster-edge')!;
      api.secretStore.set('argocd/cluster-edge', {
        ...right,
        data: {
          ...right.data,
          server: Buffer.from('https://x:1').toString('base64'),
        },
      });
      api.failNext.set('secrets.replace', conflict());
      api.counter.reset();
      const pass = await reconciler.reconcileAll();
      expect(pass).toMatchObject({ failed: 0, secretWrites: 1 });
      expect(api.secretStore.get('argocd/cluster-edge')!.data).toEqual(
        right.data,
      );
      // the requeue read the Cluster and both Secrets again
      expect(api.counter.byVerb().GET).toBe(3);
      expect(publisher.changes).toHaveLength(1);
    });

    it('a kubeconfig Secret adopted from a stale read', async () => {
      const { api, reconciler } = setup();
      await api.secrets.create(
        kubeconfigSecret({ clusterName: 'edge', kubeconfig: kubeconfigText() }),
      );
      await api.clusters.create(
        clusterForRequest({ name: 'edge', kubeconfig: kubeconfigText() }),
      );
      api.failNext.set('secrets.patchMetadata', conflict());
      expect((await reconciler.reconcileAll()).failed).toBe(0);
      const secret = api.secretStore.get('infrared/cluster-edge-kubeconfig')!;
      expect(secret.metadata.ownerReferences?.[0]?.name).toBe('edge');
    });

    it('at most four times; then the write counts as refused and nothing is published', async () => {
      const { api, publisher, reconciler } = setup();
      await addCluster(api, 'edge');
      let creates = 0;
      api.secrets.create = async () => {
        creates++;
        throw new KubeApiError(
          409,
          'AlreadyExists',
          'secrets "cluster-edge" already exists',
        );
      };
      const pass = await reconciler.reconcileOne('edge');
      expect(creates).toBe(4);
      expect(pass.failed).toBe(0);
      expect(
        condition(api.clusterStore.get('edge'), 'Registered'),
      ).toMatchObject({
        status: 'False',
        reason: 'ArgoSecretFailed',
        message: expect.stringContaining('already exists'),
      });
      expect(publisher.changes).toEqual([]);
    });

    it('the management cluster, made meanwhile by another replica: read and reconciled', async () => {
      const { api, reconciler } = setup();
      const create = api.clusters.create.bind(api.clusters);
      api.clusters.create = async cluster => {
        await create(cluster);
        throw new KubeApiError(409, 'AlreadyExists', 'already exists');
      };
      const pass = await reconciler.reconcileAll();
      expect(pass).toMatchObject({ clusters: 1, failed: 0 });
      expect(
        condition(api.clusterStore.get('infrared-mgmt'), 'Registered'),
      ).toMatchObject({ status: 'True', reason: 'ManagementCluster' });
    });
  });

  it("does not wait for a fast path once this replica's own has run: a pass right after it sees the server stop", async () => {
    const { api, prober, reconciler } = setup();
    await api.secrets.create(
      kubeconfigSecret({ clusterName: 'edge', kubeconfig: kubeconfigText() }),
    );
    // accepted by this replica's API just now, as ClusterService stamps it
    await api.clusters.create(
      stampAccepted(
        clusterForRequest({ name: 'edge', kubeconfig: kubeconfigText() }),
        new Date(),
      ),
    );
    await reconciler.reconcile({ names: ['edge'] });
    expect(condition(api.clusterStore.get('edge'), 'Registered')?.status).toBe(
      'True',
    );
    prober.result = { ok: false, reason: 'Unreachable', message: 'down' };
    await reconciler.reconcileAll();
    expect(condition(api.clusterStore.get('edge'), 'Connected')).toMatchObject({
      status: 'False',
      reason: 'Unreachable',
    });
  });

  it('does not LIST or make the management cluster in a pass over named Clusters', async () => {
    const { api, reconciler } = setup();
    await addCluster(api, 'edge');
    api.counter.reset();
    const pass = await reconciler.reconcile({ names: ['edge'] });
    expect(pass).toMatchObject({ clusters: 1, published: 1, failed: 0 });
    expect(api.counter.byVerb().LIST).toBeUndefined();
    expect(api.clusterStore.has('infrared-mgmt')).toBe(false);
  });

  it('leaves to a pass over named Clusters the Cluster it has in hand', async () => {
    const { api, prober, reconciler } = setup();
    await addCluster(api, 'edge');
    await reconciler.reconcileAll();
    let release!: () => void;
    const held = new Promise<void>(r => (release = r));
    const probe = prober.probe.bind(prober);
    prober.probe = async () => {
      await held;
      return probe();
    };
    const one = reconciler.reconcileOne('edge');
    await new Promise(r => setImmediate(r));
    prober.probe = probe;
    const all = await reconciler.reconcileAll();
    // the management cluster only: edge is the named pass's
    expect(all.clusters).toBe(1);
    release();
    expect((await one).clusters).toBe(1);
  });

  it('reconciles one cluster with GETs (the fast path after an API write)', async () => {
    const { api, reconciler } = setup();
    await addCluster(api, 'edge');
    api.counter.reset();
    await reconciler.reconcileOne('edge');
    expect(condition(api.clusterStore.get('edge'), 'Registered')?.status).toBe(
      'True',
    );
    expect(api.counter.byVerb().LIST).toBeUndefined();
  });

  describe('after a pass that wrote nothing (not planned again while nothing changed)', () => {
    async function steady() {
      const h = setup();
      await addCluster(h.api, 'edge');
      await h.reconciler.reconcileAll();
      const quiet = await h.reconciler.reconcileAll();
      expect(quiet).toMatchObject({ statusWrites: 0, secretWrites: 0 });
      return h;
    }

    it('still sees a cluster that stopped answering', async () => {
      const { api, prober, reconciler } = await steady();
      prober.result = {
        ok: false,
        reason: 'Unreachable',
        message: 'cannot reach the API server',
      };
      await reconciler.reconcileAll();
      const connected = condition(api.clusterStore.get('edge'), 'Connected');
      expect(connected).toMatchObject({
        status: 'False',
        reason: 'Unreachable',
      });
    });

    it('still sees a changed node count', async () => {
      const { api, prober, reconciler } = await steady();
      prober.result = { ok: true, kubernetesVersion: 'v1.37.2', nodes: 5 };
      await reconciler.reconcileAll();
      expect(api.clusterStore.get('edge')?.status?.nodes).toBe(5);
    });

    it('still restores an Argo CD Secret someone deleted', async () => {
      const { api, reconciler } = await steady();
      api.secretStore.delete('argocd/cluster-edge');
      const pass = await reconciler.reconcileAll();
      expect(pass.secretWrites).toBe(1);
      expect(api.secretStore.has('argocd/cluster-edge')).toBe(true);
    });

    it('still publishes again when the registration files changed', async () => {
      const { api, publisher, reconciler } = await steady();
      const edge = api.clusterStore.get('edge')!;
      await api.clusters.patchMetadata('edge', {
        annotations: { [REGISTERED_FILES_ANNOTATION]: 'stale' },
      });
      expect(api.clusterStore.get('edge')!.metadata.resourceVersion).not.toBe(
        edge.metadata.resourceVersion,
      );
      const before = publisher.changes.length;
      await reconciler.reconcileAll();
      expect(publisher.changes.length).toBe(before + 1);
    });
  });
});

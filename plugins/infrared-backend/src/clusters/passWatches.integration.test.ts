/*
 * The scheduled pass reading its Clusters and Secrets from watches (issue 25: CPU at rest), on a
 * control plane of this file's own (it counts every request of a pass over every Cluster), as the
 * backend's ServiceAccount with only deploy/rbac: no LIST at rest, a deleted Argo CD Secret restored
 * by the next pass once the watch has seen the delete, the LISTs again while a watch is stopped.
 */
import { mockServices } from '@backstage/backend-test-utils';
import type { LifecycleService } from '@backstage/backend-plugin-api';
import {
  eventually,
  KubeClient as AdminClient,
  startControlPlane,
  type ControlPlane,
  removeTestDir,
} from '@internal/devenv';
import type { ClusterResource } from '@infrared-clusters/plugin-infrared-common';
import {
  KubeClient,
  KubeClusterProber,
  kubeConfigFromText,
  managementApi,
  RequestCounter,
  type ManagementApi,
} from '@infrared-clusters/infrared-kube';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BatchingPublisher, LocalGitPublisher } from '../gitops';
import { prepareManagementCluster } from './__testUtils__/managementCluster';
import { DEFAULT_MAX_FILES_PER_CHANGE } from './config';
import { ClusterReconciler } from './reconciler';
import { startClusterWatches } from './watchedClusters';

jest.setTimeout(180_000);

const CLUSTERS = '/apis/infrared.darkshift.io/v1alpha1/clusters';
const NAME = 'edge-watched';

/** The management API, with its LISTs (clusters.list, secrets.list) counted. */
function countingLists(api: ManagementApi) {
  const lists = { count: 0 };
  // the same objects underneath (their methods use `this`), with `list` counted
  const counted = <O extends { list: (...a: any[]) => Promise<unknown> }>(
    o: O,
  ): O =>
    Object.assign(Object.create(o), {
      list: (...a: unknown[]) => {
        lists.count++;
        return o.list(...a);
      },
    });
  const wrapped: ManagementApi = Object.assign(Object.create(api), {
    clusters: counted(api.clusters),
    secrets: counted(api.secrets),
  });
  return { api: wrapped, lists };
}

describe('the scheduled pass on watches, on a real control plane', () => {
  let cp: ControlPlane;
  let admin: AdminClient;
  let tmp: string;
  const shutdown: (() => void | Promise<void>)[] = [];
  let reconciler: ClusterReconciler;
  let watches: ReturnType<typeof startClusterWatches>;
  let lists: { count: number };

  const clusterNow = async (): Promise<ClusterResource> =>
    (await admin.must('GET', `${CLUSTERS}/${NAME}`)).body;
  const argoNow = async () =>
    (
      await admin.request(
        'GET',
        `/api/v1/namespaces/argocd/secrets/cluster-${NAME}`,
      )
    ).body;

  beforeAll(async () => {
    cp = await startControlPlane({
      clusters: ['management', 'workload-a'],
      ownerPid: process.pid,
    });
    const management = cp.cluster('management');
    admin = AdminClient.fromKubeconfig(management.kubeconfig);
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'infrared-passwatch-'));
    const kubeconfig = await prepareManagementCluster(management);
    const client = new KubeClient(kubeConfigFromText(kubeconfig), {
      counter: new RequestCounter(),
    });
    // the management Cluster's probe (/version) on a client of its own: the pass's count is its
    // reads and writes
    const probeClient = new KubeClient(kubeConfigFromText(kubeconfig));
    const counting = countingLists(managementApi(client));
    lists = counting.lists;
    watches = startClusterWatches({
      client,
      lifecycle: {
        addShutdownHook: (hook: () => void | Promise<void>) =>
          shutdown.push(hook),
      } as unknown as LifecycleService,
      logger: mockServices.logger.mock(),
    });
    reconciler = new ClusterReconciler({
      api: counting.api,
      prober: new KubeClusterProber(probeClient),
      publisher: new BatchingPublisher(
        new LocalGitPublisher({ path: path.join(tmp, 'gitops.git') }),
        { maxFilesPerChange: DEFAULT_MAX_FILES_PER_CHANGE },
      ),
      managementCluster: 'infrared-mgmt',
      logger: mockServices.logger.mock(),
      watches,
    });
    // a Cluster made with kubectl: its kubeconfig Secret by hand, adopted by the pass
    const workload = cp.cluster('workload-a');
    await admin.must('POST', '/api/v1/namespaces/infrared/secrets', {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: `${NAME}-kc`, namespace: 'infrared' },
      stringData: { value: workload.kubeconfig },
    });
    await admin.must('POST', CLUSTERS, {
      apiVersion: 'infrared.darkshift.io/v1alpha1',
      kind: 'Cluster',
      metadata: { name: NAME },
      spec: {
        type: 'workload',
        flavor: 'k3s',
        connection: {
          kubeconfigSecretRef: { name: `${NAME}-kc`, key: 'value' },
        },
      },
    });
  });

  afterAll(async () => {
    for (const hook of shutdown) await hook();
    await cp?.stop();
    if (tmp) removeTestDir(tmp);
  });

  it('registers and makes the management Cluster from the watches, then a pass at rest sends no request', async () => {
    await eventually(
      async () =>
        watches.clusters.isHealthy &&
        watches.kubeconfigs.isHealthy &&
        watches.argos.isHealthy,
      60_000,
      50,
    );
    await eventually(
      async () => {
        await reconciler.reconcileAll();
        const { status } = await clusterNow();
        const registered = status?.conditions?.find(
          c => c.type === 'Registered',
        );
        return registered?.status === 'True';
      },
      60_000,
      100,
    );
    expect(lists.count).toBe(0);
    expect(
      (await admin.must('GET', `${CLUSTERS}/infrared-mgmt`)).body.spec.type,
    ).toBe('management');

    // the watches have the last pass's writes: one more pass settles, the next one reads nothing
    await reconciler.reconcileAll();
    const atRest = await reconciler.reconcileAll();
    expect(atRest).toMatchObject({
      clusters: 2,
      requests: 0,
      requestsByVerb: {},
      failed: 0,
    });
    expect(lists.count).toBe(0);
  });

  it('restores a deleted Argo CD Secret in the next pass once the watch has seen the delete', async () => {
    const right = await argoNow();
    expect(right.data?.server).toBeDefined();
    await admin.must(
      'DELETE',
      `/api/v1/namespaces/argocd/secrets/cluster-${NAME}`,
    );
    await eventually(
      async () => !watches.argos.get(`cluster-${NAME}`, 'argocd'),
      20_000,
      20,
    );
    const pass = await reconciler.reconcileAll();
    expect(pass).toMatchObject({ secretWrites: 1, failed: 0 });
    const restored = await argoNow();
    expect(restored.data).toEqual(right.data);
    expect(lists.count).toBe(0);
  });

  it('LISTs while a watch is stopped, and forgets nothing it needs', async () => {
    await watches.argos.stop();
    const pass = await reconciler.reconcileAll();
    expect(pass).toMatchObject({ clusters: 2, failed: 0, secretWrites: 0 });
    expect(lists.count).toBe(3);
  });
});

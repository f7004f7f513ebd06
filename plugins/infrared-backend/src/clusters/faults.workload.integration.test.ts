import {
  eventually,
  recordRecovery,
  KubeClient as AdminClient,
  type ControlPlane,
} from '@internal/devenv';
import type { ClusterCondition } from '@infrared-clusters/plugin-infrared-common';
import { execFileSync } from 'node:child_process';
import {
  startBackendOnControlPlane,
  type BackendOnControlPlane,
} from '../__testUtils__/backendOnControlPlane';

jest.setTimeout(150_000);

const TASK = 'infrared-clusters-reconcile';

/**
 * Issue 17, "workload API server stopped": a Cluster registered by kubeconfig, on a control plane
 * of this test's own (its workload kube-apiserver is stopped and started again). One scheduled
 * pass (`pass()`) stands for one reconcile interval.
 */
describe('a workload API server stopped and started again', () => {
  let cp: ControlPlane;
  let backend: BackendOnControlPlane;
  let admin: AdminClient;

  const pass = () => backend.pass(TASK);
  /** The Cluster's condition as stored (not the backend's view of it, which may be cached). */
  const condition = async (name: string, type: string) => {
    const cluster = await admin.must(
      'GET',
      `/apis/infrared.darkshift.io/v1alpha1/clusters/${name}`,
    );
    const conditions: ClusterCondition[] =
      cluster.body.status?.conditions ?? [];
    return conditions.find(c => c.type === type);
  };
  const connected = (name: string) => condition(name, 'Connected');
  const git = (...args: string[]) =>
    execFileSync('git', [`--git-dir=${backend.gitops}`, ...args], {
      encoding: 'utf8',
    }).trim();
  /** What must not change while the cluster is down: the Argo CD Secret and the gitops repo. */
  const untouched = async (name: string) => {
    const argo = await admin.must(
      'GET',
      `/api/v1/namespaces/argocd/secrets/cluster-${name}`,
    );
    return {
      argoSecret: `${argo.body.metadata.uid}@${argo.body.metadata.resourceVersion}`,
      refs: git('for-each-ref', '--format=%(refname) %(objectname)'),
      files: git('ls-tree', '-r', 'main'),
    };
  };

  beforeAll(async () => {
    backend = await startBackendOnControlPlane({
      controlPlane: ['management', 'workload-down'],
      withClient: false,
      tmpPrefix: 'infrared-fault-',
    });
    cp = backend.cp;
    admin = cp.client('management');
  });

  afterAll(async () => {
    await backend?.stop();
  });

  it.each([
    ['stopped', 'edge-stopped', false],
    ['crashed', 'edge-crashed', true],
  ])(
    '%s: Connected False Unreachable in the first pass, nothing touched while down, True again by itself',
    async (how, name, crash) => {
      const workload = cp.cluster('workload-down');
      const created = await backend.send('post', '/v1/clusters', {
        name,
        kubeconfig: workload.kubeconfig,
      });
      expect(created.status).toBe(201);
      // the POST's own pass registers it (a scheduled pass skips a Cluster that pass holds)
      await eventually(
        async () => (await condition(name, 'Registered'))?.status === 'True',
        60_000,
        100,
      );
      expect(await connected(name)).toMatchObject({ status: 'True' });
      const before = await untouched(name);

      const stoppedAt = Date.now();
      await cp.stopApiserver('workload-down', { crash });
      const stopped = Date.now();
      await pass();
      const down = await connected(name);
      const downSeen = Date.now();
      expect(down).toMatchObject({ status: 'False', reason: 'Unreachable' });
      expect(down!.message).toContain(workload.server);
      // Registration happened; being down does not undo it.
      expect(await condition(name, 'Registered')).toMatchObject({
        status: 'True',
      });
      await pass();
      expect(await untouched(name)).toEqual(before);

      const restartedAt = Date.now();
      await cp.startApiserver('workload-down');
      const ready = Date.now();
      await pass();
      const up = await connected(name);
      const upSeen = Date.now();
      expect(up).toMatchObject({ status: 'True', reason: 'Connected' });
      expect(await untouched(name)).toEqual(before);

      recordRecovery(`workload API server ${how}`, {
        stopMs: stopped - stoppedAt,
        stopToUnreachableMs: downSeen - stopped,
        restartToReadyMs: ready - restartedAt,
        readyToConnectedMs: upSeen - ready,
      });
      // one registration per API server (issue 23.1): the next case registers workload-down again
      const removed = await backend.send('delete', `/v1/clusters/${name}`);
      expect(removed.status).toBe(200);
    },
  );
});

import { mockServices } from '@backstage/backend-test-utils';
import {
  etcdEvents,
  etcdKey,
  etcdRevision,
  eventually,
  recordRecovery,
  startControlPlane,
  type ControlPlane,
} from '@internal/devenv';
import {
  KubeClient,
  kubeConfigFromText,
} from '@infrared-clusters/infrared-kube';
import { parse, stringify } from 'yaml';
import { registerRegistrarTask, type RegistrarTask } from './task';

jest.setTimeout(180_000);

const P = 'argocd-cluster-registrar/';
const CHILDREN = 60;
const MANAGED_BY = 'fault-task';
const TARGET = 'argocd';

/**
 * Issue 17, "management API server restarted mid-pass", for the backend's registrar task: the
 * Lease holder passes in-process on what its watches see; its management kube-apiserver (a control
 * plane of this test's own) is killed while such a pass writes, and started again. Nothing runs
 * the scheduled task: whatever registers the rest comes from the replica itself.
 */
describe('the registrar task across a management API server crash', () => {
  let cp: ControlPlane;
  let task: RegistrarTask | undefined;
  const clusters = Array.from({ length: CHILDREN }, (_, i) => `kid-${i}`);
  const scheduled: string[] = [];

  beforeAll(async () => {
    cp = await startControlPlane({
      clusters: ['management'],
      ownerPid: process.pid,
    });
    await cp
      .client('management')
      .must('POST', '/api/v1/namespaces', { metadata: { name: TARGET } });
  });

  afterAll(async () => {
    await task?.stop();
    await cp?.stop();
  });

  const addChild = async (cluster: string) => {
    const admin = cp.client('management');
    const ns = `k3k-${cluster}`;
    await admin.must('POST', '/api/v1/namespaces', {
      metadata: {
        name: ns,
        labels: { [`${P}managed-by`]: MANAGED_BY, [`${P}cluster`]: cluster },
      },
    });
    // a server of its own, never dialled: data, under loopback's *.localhost
    const kubeconfig = parse(cp.cluster('management').kubeconfig);
    kubeconfig.clusters[0].cluster.server = `https://${cluster}.localhost:6443`;
    await admin.must('POST', `/api/v1/namespaces/${ns}/secrets`, {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: `k3k-${cluster}-kubeconfig` },
      stringData: { 'kubeconfig.yaml': stringify(kubeconfig) },
    });
  };
  const registered = async () =>
    (
      await cp
        .client('management')
        .must(
          'GET',
          `/api/v1/namespaces/${TARGET}/secrets?labelSelector=${encodeURIComponent(
            `${P}managed-by=${MANAGED_BY}`,
          )}`,
        )
    ).body.items.map((s: any) => s.metadata.name) as string[];

  it('registers every child with no scheduled run, each Argo CD Secret written once', async () => {
    const { etcdUrl } = cp.state;
    const kubeConfig = kubeConfigFromText(cp.cluster('management').kubeconfig);
    task = await registerRegistrarTask({
      config: mockServices.rootConfig({
        data: {
          infrared: {
            registrar: {
              enabled: true,
              managedBy: MANAGED_BY,
              targetNamespace: TARGET,
              providers: ['k3k'],
              interval: '1h',
            },
          },
        },
      }),
      logger: mockServices.logger.mock(),
      // a scheduler that never runs the task
      scheduler: mockServices.scheduler.mock({
        scheduleTask: async () => {},
        triggerTask: async (id: string) => {
          scheduled.push(id);
        },
      }),
      client: new KubeClient(kubeConfig),
      kubeConfig,
      leaderElection: { identity: 'replica-1' },
    });
    await eventually(async () => task!.leadership() === 'leader', 30_000, 100);
    await eventually(async () => task!.passes() >= 1, 30_000, 100);
    const from = (await etcdRevision(etcdUrl)).revision + 1;

    const argoPrefix = `${etcdKey('management', 'secrets', TARGET)}/`;
    await Promise.all(clusters.map(addChild));
    await eventually(
      async () => (await etcdRevision(etcdUrl, argoPrefix)).count >= 3,
      60_000,
      10,
    );
    const crashedAt = Date.now();
    await cp.stopApiserver('management', { crash: true });
    const writtenBeforeCrash = (await etcdRevision(etcdUrl, argoPrefix)).count;
    expect(writtenBeforeCrash).toBeLessThan(CHILDREN);
    await cp.startApiserver('management');
    const ready = Date.now();

    await eventually(
      async () => (await registered()).length === CHILDREN,
      60_000,
      100,
    );
    const converged = Date.now();
    expect((await registered()).sort()).toEqual(
      clusters.map(c => `cluster-${c}`).sort(),
    );
    expect(scheduled).toEqual([]);
    expect(task!.leadership()).toBe('leader');

    const marker = `zz-end-${Date.now()}`;
    await cp
      .client('management')
      .must('POST', `/api/v1/namespaces/${TARGET}/secrets`, {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: marker },
      });
    const events = await etcdEvents(etcdUrl, {
      prefix: argoPrefix,
      fromRevision: from,
      until: e => e.key.endsWith(`/${marker}`),
    });
    const writes: Record<string, string[]> = {};
    for (const e of events.filter(x => !x.key.endsWith(`/${marker}`))) {
      (writes[e.key] ??= []).push(`${e.type}@${e.version}`);
    }
    expect(writes).toEqual(
      Object.fromEntries(
        clusters.map(c => [`${argoPrefix}cluster-${c}`, ['PUT@1']]),
      ),
    );

    recordRecovery('management API server killed under the registrar task', {
      children: CHILDREN,
      argoSecretsBeforeCrash: writtenBeforeCrash,
      crashToReadyMs: ready - crashedAt,
      // the replica passes while the restarted server is still starting (before /readyz)
      crashToAllRegisteredMs: converged - crashedAt,
    });
  });
});

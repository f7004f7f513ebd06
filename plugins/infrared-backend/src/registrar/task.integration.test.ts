import { mockServices } from '@backstage/backend-test-utils';
import { eventually, getTestControlPlane, uniqueName } from '@internal/devenv';
import {
  KubeClient,
  kubeConfigFromText,
} from '@infrared-clusters/infrared-kube';
import {
  KubeRegistrarApi,
  registrarLeaseName,
} from '@infrared-clusters/infrared-registrar';
import { registerRegistrarTask, REGISTRAR_TASK_ID } from './task';

jest.setTimeout(120_000);

const P = 'argocd-cluster-registrar/';
const cp = getTestControlPlane();
const management = cp.cluster('management');
const admin = cp.client('management');
const b64 = (s: string) => Buffer.from(s).toString('base64');
const created: string[] = [];

async function createNamespace(name: string, labels: Record<string, string>) {
  created.push(name);
  await admin.must('POST', '/api/v1/namespaces', {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name, labels },
  });
}

afterAll(async () => {
  await Promise.all(
    created.map(ns =>
      admin.request('DELETE', `/api/v1/namespaces/${ns}`).catch(() => {}),
    ),
  );
});

describe('the registrar task is watch-driven', () => {
  it('triggers the scheduled task when a kubeconfig Secret appears in a managed namespace, and that pass registers it', async () => {
    const managedBy = uniqueName('task');
    const target = uniqueName('argocd');
    await createNamespace(target, {});
    let fn: ((signal: AbortSignal) => Promise<void>) | undefined;
    const triggered: string[] = [];
    const scheduler = mockServices.scheduler.mock({
      scheduleTask: async (task: any) => {
        fn = task.fn;
      },
      triggerTask: async (id: string) => {
        triggered.push(id);
      },
    });
    const kubeConfig = kubeConfigFromText(management.kubeconfig);
    const task = await registerRegistrarTask({
      config: mockServices.rootConfig({
        data: {
          infrared: {
            registrar: {
              enabled: true,
              managedBy,
              targetNamespace: target,
              interval: '1h',
            },
          },
        },
      }),
      logger: mockServices.logger.mock(),
      scheduler,
      api: new KubeRegistrarApi(new KubeClient(kubeConfig)),
      kubeConfig,
    });
    try {
      // The first scheduled pass starts the watches.
      await fn!(new AbortController().signal);
      expect(triggered).toEqual([]);

      const ns = uniqueName('k3k');
      const cluster = uniqueName('child');
      await createNamespace(ns, {
        [`${P}managed-by`]: managedBy,
        [`${P}cluster`]: cluster,
      });
      await admin.must('POST', `/api/v1/namespaces/${ns}/secrets`, {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: `k3k-${cluster}-kubeconfig`, namespace: ns },
        data: {
          'kubeconfig.yaml': b64(
            management.kubeconfig.replace(
              management.server,
              'https://192.0.2.77:6443',
            ),
          ),
        },
      });
      await eventually(async () => triggered.length > 0, 30_000, 100);
      expect(triggered[0]).toBe(REGISTRAR_TASK_ID);

      // What the scheduler then runs.
      await fn!(new AbortController().signal);
      expect(task!.lastReport()).toMatchObject({ created: 1, errors: [] });
      const secret = await admin.must(
        'GET',
        `/api/v1/namespaces/${target}/secrets/cluster-${cluster}`,
      );
      expect(secret.body.metadata.labels[`${P}source-namespace`]).toBe(ns);
      // what the Clusters page is told of it (issue 23.1)
      const registered = task!.status.get(ns);
      expect(registered).toEqual({
        namespace: ns,
        cluster,
        pass: {
          outcome: 'registered',
          at: expect.any(String),
          since: expect.any(String),
          message: `Argo CD Secret cluster-${cluster} created for https://192.0.2.77:6443`,
        },
      });

      // a managed namespace without a kubeconfig Secret: skipped, and why
      const bare = uniqueName('k3k');
      await createNamespace(bare, {
        [`${P}managed-by`]: managedBy,
        [`${P}cluster`]: uniqueName('bare'),
      });
      await fn!(new AbortController().signal);
      expect(task!.status.get(ns)?.pass).toMatchObject({
        outcome: 'unchanged',
      });
      expect(task!.status.get(ns)!.pass.since).not.toBe(registered!.pass.since);
      expect(task!.status.get(bare)?.pass).toMatchObject({
        outcome: 'skipped',
        reason: 'no_kubeconfig',
        message: expect.stringContaining(
          `no kubeconfig Secret yet in namespace ${bare}`,
        ),
      });
    } finally {
      task?.stop();
    }
  });
});

describe('the Lease holder passes in-process on a change', () => {
  it('registers a new child without the scheduler, while a replica without the Lease does not pass', async () => {
    const managedBy = uniqueName('lease');
    const target = uniqueName('argocd');
    await createNamespace(target, {});
    const kubeConfig = kubeConfigFromText(management.kubeconfig);
    const config = mockServices.rootConfig({
      data: {
        infrared: {
          registrar: {
            enabled: true,
            managedBy,
            targetNamespace: target,
            interval: '1h',
          },
        },
      },
    });
    // Schedulers that never run the task: whatever passes, passes in-process.
    const replica = (identity: string) => {
      const triggered: string[] = [];
      const scheduled: Array<(signal: AbortSignal) => Promise<void>> = [];
      const scheduler = mockServices.scheduler.mock({
        scheduleTask: async (task: any) => {
          scheduled.push(task.fn);
        },
        triggerTask: async (id: string) => {
          triggered.push(id);
        },
      });
      return { identity, triggered, scheduled, scheduler };
    };
    const one = replica('replica-1');
    const two = replica('replica-2');
    const start = (r: ReturnType<typeof replica>) =>
      registerRegistrarTask({
        config,
        logger: mockServices.logger.mock(),
        scheduler: r.scheduler,
        client: new KubeClient(kubeConfig),
        kubeConfig,
        leaderElection: { identity: r.identity },
      });
    const leader = (await start(one))!;
    await eventually(async () => leader.leadership() === 'leader', 30_000, 100);
    const follower = (await start(two))!;
    try {
      // The holder's first pass (on taking the Lease) starts its watches.
      await eventually(async () => leader.passes() >= 1, 30_000, 100);
      // The other replica sees a live holder and leaves passes to it, even its scheduled runs.
      await eventually(
        async () => follower.leadership() === 'follower',
        30_000,
        100,
      );
      await two.scheduled[0](new AbortController().signal);
      expect(follower.passes()).toBe(0);
      const lease = await admin.must(
        'GET',
        `/apis/coordination.k8s.io/v1/namespaces/${target}/leases/${registrarLeaseName(
          P,
          managedBy,
        )}`,
      );
      expect(lease.body.spec.holderIdentity).toBe('replica-1');

      const ns = uniqueName('k3k');
      const cluster = uniqueName('child');
      await createNamespace(ns, {
        [`${P}managed-by`]: managedBy,
        [`${P}cluster`]: cluster,
      });
      await admin.must('POST', `/api/v1/namespaces/${ns}/secrets`, {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: `k3k-${cluster}-kubeconfig`, namespace: ns },
        data: {
          'kubeconfig.yaml': b64(
            management.kubeconfig.replace(
              management.server,
              'https://192.0.2.78:6443',
            ),
          ),
        },
      });
      await eventually(
        async () =>
          (
            await admin.request(
              'GET',
              `/api/v1/namespaces/${target}/secrets/cluster-${cluster}`,
            )
          ).status === 200,
        30_000,
        100,
      );
      const secret = await admin.must(
        'GET',
        `/api/v1/namespaces/${target}/secrets/cluster-${cluster}`,
      );
      expect(secret.body.metadata.labels[`${P}source-namespace`]).toBe(ns);
      expect(one.triggered).toEqual([]);
      expect(follower.leadership()).toBe('follower');
      expect(follower.passes()).toBe(0);
      expect(follower.lastReport()).toBeUndefined();
    } finally {
      await follower.stop();
      await leader.stop();
    }
  });
});

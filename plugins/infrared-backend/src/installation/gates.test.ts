import { mockServices } from '@backstage/backend-test-utils';
import { RequestCounter } from '@infrared-clusters/infrared-kube';
import type { RegistrarApi } from '@infrared-clusters/infrared-registrar';
import { registerRegistrarTask } from '../registrar';
import { gatedScheduler, type InstallationGate } from './gates';

/** A gate switched by the test. */
function switchGate(initially: boolean) {
  let allowed = initially;
  const listeners: Array<(a: boolean) => void> = [];
  const gate: InstallationGate & { set(a: boolean): void } = {
    allows: () => allowed,
    onChange: l => {
      listeners.push(l);
    },
    refusal: () =>
      allowed ? undefined : new Error('installation "x" holds it'),
    set(a) {
      allowed = a;
      listeners.forEach(l => l(a));
    },
  };
  return gate;
}

function recordingScheduler() {
  const tasks = new Map<string, (signal: AbortSignal) => Promise<void>>();
  const triggered: string[] = [];
  const scheduler = mockServices.scheduler.mock({
    scheduleTask: async (task: any) => {
      tasks.set(task.id, task.fn);
    },
    triggerTask: async (id: string) => {
      triggered.push(id);
    },
  });
  const run = (id: string) => tasks.get(id)!(new AbortController().signal);
  return { scheduler, run, triggered };
}

describe('gatedScheduler', () => {
  it("skips a task's runs while the installation may not write, and triggers it when it may again", async () => {
    const gate = switchGate(false);
    const { scheduler, run, triggered } = recordingScheduler();
    const gated = gatedScheduler(scheduler, gate, mockServices.logger.mock());
    let passes = 0;
    await gated.scheduleTask({
      id: 'infrared-clusters-reconcile',
      frequency: { seconds: 30 },
      timeout: { minutes: 1 },
      fn: async () => {
        passes++;
      },
    });
    await run('infrared-clusters-reconcile');
    expect(passes).toBe(0);
    gate.set(true);
    expect(triggered).toEqual(['infrared-clusters-reconcile']);
    await run('infrared-clusters-reconcile');
    expect(passes).toBe(1);
  });

  it('triggers nothing when the installation may write again but no run was skipped (the schedule goes on)', async () => {
    const gate = switchGate(false);
    const { scheduler, triggered } = recordingScheduler();
    const gated = gatedScheduler(scheduler, gate, mockServices.logger.mock());
    await gated.scheduleTask({
      id: 'infrared-clusters-reconcile',
      frequency: { seconds: 30 },
      timeout: { minutes: 1 },
      fn: async () => {},
    });
    gate.set(true);
    expect(triggered).toEqual([]);
  });
});

describe('the registrar under the installation gate', () => {
  const b64 = (s: string) => Buffer.from(s).toString('base64');
  const kubeconfig = `apiVersion: v1
kind: Config
clusters: [{name: c, cluster: {server: 'https://192.0.2.1:6443', certificate-authority-data: ${b64(
    'CA',
  )}}}]
users: [{name: u, user: {token: t}}]
contexts: [{name: c, context: {cluster: c, user: u}}]
current-context: c
`;
  const created: string[] = [];
  const api: RegistrarApi = {
    counter: new RequestCounter(),
    listNamespaces: async () => [
      {
        metadata: {
          name: 'k3k-a',
          uid: 'u1',
          labels: {
            'argocd-cluster-registrar/managed-by': 'cluster-registrar',
            'argocd-cluster-registrar/cluster': 'a',
          },
        },
      },
    ],
    getNamespace: async () => undefined,
    listSecrets: async () => [
      {
        metadata: { name: 'k3k-a-kubeconfig', namespace: 'k3k-a' },
        data: { 'kubeconfig.yaml': b64(kubeconfig) },
      },
    ],
    createSecret: async s => {
      created.push(s.metadata.name);
      return s;
    },
    replaceSecret: async s => s,
    deleteSecret: async () => {},
  };

  it('passes only while the installation may write', async () => {
    const gate = switchGate(false);
    const { scheduler, run } = recordingScheduler();
    const task = await registerRegistrarTask({
      config: mockServices.rootConfig({
        data: { infrared: { registrar: { enabled: true } } },
      }),
      logger: mockServices.logger.mock(),
      scheduler,
      api,
      gate,
    });
    await run(task!.taskId);
    expect(created).toEqual([]);
    expect(task!.passes()).toBe(0);
    gate.set(true);
    await run(task!.taskId);
    expect(created).toEqual(['cluster-a']);
    await task!.stop();
  });
});

import { mockServices } from '@backstage/backend-test-utils';
import { eventually, getTestControlPlane, uniqueName } from '@internal/devenv';
import {
  KubeClient,
  kubeConfigFromText,
} from '@infrared-clusters/infrared-kube';
import { registrarLeaseName } from '@infrared-clusters/infrared-registrar';
import { registerRegistrarTask } from '../registrar';
import type { InstallationGate } from './gates';

jest.setTimeout(120_000);

const P = 'argocd-cluster-registrar/';
const cp = getTestControlPlane();
const management = cp.cluster('management');
const admin = cp.client('management');

/** A gate switched by the test. */
function switchGate(initially: boolean) {
  let allowed = initially;
  const listeners: Array<(a: boolean) => void> = [];
  const gate: InstallationGate & { set(a: boolean): void } = {
    allows: () => allowed,
    onChange: l => {
      listeners.push(l);
    },
    refusal: () => undefined,
    set(a) {
      allowed = a;
      listeners.forEach(l => l(a));
    },
  };
  return gate;
}

/**
 * The registrar's own Lease (leader election among replicas) under the installation gate, on the
 * shared control plane with a target namespace and managedBy of its own: a backend whose
 * installation may not write must not hold it, or the installation that manages the management
 * cluster would see a live holder and leave every registrar pass to a backend that skips them.
 */
describe('the registrar Lease under the installation gate', () => {
  const target = uniqueName('argocd');

  afterAll(async () => {
    await admin
      .request('DELETE', `/api/v1/namespaces/${target}`)
      .catch(() => {});
  });

  it('is neither sought while refused nor kept once refused, so the managing installation holds it', async () => {
    const managedBy = uniqueName('gate');
    await admin.must('POST', '/api/v1/namespaces', {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: target },
    });
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
    const leasePath = `/apis/coordination.k8s.io/v1/namespaces/${target}/leases/${registrarLeaseName(
      P,
      managedBy,
    )}`;
    const holder = async () => {
      const res = await admin.request('GET', leasePath);
      return res.status === 200 ? res.body.spec.holderIdentity : undefined;
    };
    const start = (identity: string, gate: InstallationGate) =>
      registerRegistrarTask({
        config,
        logger: mockServices.logger.mock(),
        // never runs the task: whatever passes, passes in-process
        scheduler: mockServices.scheduler.mock(),
        client: new KubeClient(kubeConfig),
        kubeConfig,
        leaderElection: { identity, retryPeriodMs: 200 },
        gate,
      });

    const refusedGate = switchGate(false);
    const refused = (await start('refused-backend', refusedGate))!;
    const managingGate = switchGate(true);
    let managing: Awaited<ReturnType<typeof start>>;
    try {
      await new Promise(r => setTimeout(r, 1_500));
      expect(refused.leadership()).not.toBe('leader');
      expect(await holder()).toBeUndefined();
      expect(refused.passes()).toBe(0);

      // allowed (it took the installation over): it seeks the Lease and passes
      refusedGate.set(true);
      await eventually(
        async () => refused.leadership() === 'leader',
        30_000,
        100,
      );
      await eventually(async () => refused.passes() >= 1, 30_000, 100);

      // refused again: it lets the Lease go at once, and the managing installation's replica takes it
      managing = (await start('managing-backend', managingGate))!;
      await eventually(
        async () => managing!.leadership() === 'follower',
        30_000,
        100,
      );
      refusedGate.set(false);
      await eventually(
        async () => (await holder()) === 'managing-backend',
        // well under the registrar Lease's 15 s duration: released, not waited out
        8_000,
        100,
      );
      expect(refused.leadership()).not.toBe('leader');
      await eventually(async () => managing!.passes() >= 1, 30_000, 100);
    } finally {
      await refused.stop();
      await managing!?.stop();
    }
  });
});

import {
  ensureNamespace,
  getTestControlPlane,
  uniqueName,
  type KubeClient as DevenvClient,
} from '@internal/devenv';
import {
  KubeClient,
  kubeConfigFromText,
} from '@infrared-clusters/infrared-kube';
import { LeaseElector } from './lease';
import { captureLogger } from './__testUtils__/recorders';

jest.setTimeout(60_000);

const cp = getTestControlPlane();
const admin: DevenvClient = cp.client('management');
const kube = new KubeClient(
  kubeConfigFromText(cp.cluster('management').kubeconfig),
);
const namespace = uniqueName('lease');

beforeAll(() => ensureNamespace(cp.cluster('management'), namespace));
afterAll(async () => {
  await admin.request('DELETE', `/api/v1/namespaces/${namespace}`);
});

const path = (name: string) =>
  `/apis/coordination.k8s.io/v1/namespaces/${namespace}/leases/${name}`;
const micro = (d: Date) => d.toISOString().replace(/Z$/, '000Z');

function elector(name: string, identity: string) {
  return new LeaseElector(kube, {
    namespace,
    name,
    identity,
    leaseDurationMs: 1_000,
    renewDeadlineMs: 800,
    retryPeriodMs: 100,
    logger: captureLogger().logger,
  });
}

describe('LeaseElector on a real API server', () => {
  it("takes over a Lease its holder stopped renewing, once it has seen it unchanged for the holder's lease duration", async () => {
    const name = uniqueName('acr');
    await admin.must(
      'POST',
      `/apis/coordination.k8s.io/v1/namespaces/${namespace}/leases`,
      {
        apiVersion: 'coordination.k8s.io/v1',
        kind: 'Lease',
        metadata: { name },
        spec: {
          holderIdentity: 'crashed',
          leaseDurationSeconds: 1,
          renewTime: micro(new Date()),
          acquireTime: micro(new Date()),
          leaseTransitions: 0,
        },
      },
    );
    const e = elector(name, 'me');
    expect(await e.tryAcquireOrRenew()).toBe(false);
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), 20_000);
    try {
      expect(await e.acquire(controller.signal)).toBe(true);
    } finally {
      clearTimeout(timer);
    }
    const lease = (await admin.must('GET', path(name))).body;
    expect(lease.spec).toMatchObject({
      holderIdentity: 'me',
      leaseTransitions: 1,
    });
  });

  it('reports the Lease lost when another instance holds it, and releases only its own', async () => {
    const name = uniqueName('acr');
    const e = elector(name, 'me');
    expect(await e.tryAcquireOrRenew()).toBe(true);
    const lease = (await admin.must('GET', path(name))).body;
    lease.spec.holderIdentity = 'thief';
    lease.spec.renewTime = micro(new Date());
    lease.spec.leaseDurationSeconds = 30;
    await admin.must('PUT', path(name), lease);
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), 20_000);
    try {
      expect(await e.hold(controller.signal)).toBe('lost');
    } finally {
      clearTimeout(timer);
    }
    expect(e.isLeader).toBe(false);
    await e.release();
    expect((await admin.must('GET', path(name))).body.spec.holderIdentity).toBe(
      'thief',
    );
  });
});

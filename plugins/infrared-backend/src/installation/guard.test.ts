import { ConflictError, ServiceUnavailableError } from '@backstage/errors';
import { KubeApiError } from '@infrared-clusters/infrared-kube';
import { captureLogger } from '../gitops/__testUtils__/captureLogger';
import { InstallationGuard } from './guard';
import type { InstallationLease, LeaseObject } from './lease';

/** A Lease in memory whose next answers the test may replace with an error. */
function memoryLease() {
  let stored: LeaseObject | undefined;
  let version = 0;
  const fake = {
    description: 'infrared/infrared-installation',
    requests: 0,
    failWith: undefined as Error | undefined,
    get stored() {
      return stored;
    },
    set stored(value) {
      stored = value;
    },
    async read() {
      if (fake.failWith) throw fake.failWith;
      return stored && structuredClone(stored);
    },
    async write(
      _current: LeaseObject | undefined,
      holder: string,
      durationMs: number,
      now: number,
    ) {
      if (fake.failWith) throw fake.failWith;
      stored = {
        apiVersion: 'coordination.k8s.io/v1',
        kind: 'Lease',
        metadata: {
          name: 'infrared-installation',
          namespace: 'infrared',
          resourceVersion: String(++version),
        },
        spec: {
          holderIdentity: holder,
          leaseDurationSeconds: durationMs / 1000,
          renewTime: new Date(now).toISOString(),
        },
      };
      return structuredClone(stored);
    },
  };
  return fake;
}

function guardWith(lease: ReturnType<typeof memoryLease>, id = 'prod') {
  let now = 1_000_000;
  const logger = captureLogger();
  const guard = new InstallationGuard({
    id,
    leaseDurationMs: 60_000,
    renewEveryMs: 15_000,
    managementCluster: 'infrared-mgmt',
    logger,
    lease: lease as unknown as InstallationLease,
    now: () => now,
  });
  return {
    guard,
    logger,
    tick: async (ms: number) => {
      now += ms;
      await guard.check();
    },
  };
}

describe('InstallationGuard', () => {
  it('holds, keeps holding through errors for less than a duration, then stops writing (503)', async () => {
    const lease = memoryLease();
    const { guard, tick } = guardWith(lease);
    await tick(0);
    expect(guard.view()).toMatchObject({ state: 'held' });
    lease.failWith = new KubeApiError(
      0,
      'Timeout',
      'GET lease: no answer in time',
    );
    await tick(15_000);
    await tick(15_000);
    expect(guard.allows()).toBe(true);
    await tick(15_000);
    expect(guard.allows()).toBe(false);
    expect(guard.refusal()).toBeInstanceOf(ServiceUnavailableError);
    expect(guard.view().message).toContain('no answer in time');
    lease.failWith = undefined;
    await tick(15_000);
    expect(guard.view()).toMatchObject({ state: 'held' });
  });

  it('refuses with 409 naming the holder and the fix, and logs it once per holder', async () => {
    const lease = memoryLease();
    await guardWith(lease, 'trial').tick(0);
    const { guard, logger, tick } = guardWith(lease, 'prod');
    await tick(0);
    await tick(15_000);
    expect(guard.view()).toMatchObject({ state: 'refused', holder: 'trial' });
    const refusal = guard.refusal();
    expect(refusal).toBeInstanceOf(ConflictError);
    expect(refusal?.message).toContain(
      'installation "trial" manages management cluster infrared-mgmt',
    );
    expect(refusal?.message).toContain('infrared.installation.id');
    expect(logger.lines.filter(l => l.startsWith('error'))).toHaveLength(1);
    // nobody renews it: taken over after a whole duration unchanged
    await tick(45_000);
    expect(guard.view()).toMatchObject({ state: 'held' });
    expect(lease.stored?.spec?.holderIdentity).toBe('prod');
    expect(logger.text()).toContain('took it over from installation "trial"');
  });

  it('without RBAC for the Lease: works unguarded and says so, once', async () => {
    const lease = memoryLease();
    lease.failWith = new KubeApiError(403, 'Forbidden', 'GET lease: forbidden');
    const { guard, logger, tick } = guardWith(lease);
    await tick(0);
    await tick(15_000);
    expect(guard.view()).toMatchObject({ state: 'unguarded' });
    expect(guard.allows()).toBe(true);
    const errors = logger.lines.filter(l => l.startsWith('error'));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain('grant it leases get, create and update');
  });
});

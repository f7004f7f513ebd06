import { mockServices } from '@backstage/backend-test-utils';
import type { GatePassSummary } from './gate';
import { GatePasses } from './gatePasses';

const SUMMARY: GatePassSummary = {
  releases: 0,
  published: 0,
  statusWrites: 0,
  requests: 0,
  durationMs: 0,
};

/** A gate whose passes take `ms` and are counted, never two at once. */
function slowGate(ms: number) {
  const gate = { started: 0, running: 0, overlapped: false };
  return Object.assign(gate, {
    pass: async () => {
      gate.started++;
      gate.running++;
      if (gate.running > 1) gate.overlapped = true;
      await new Promise(r => setTimeout(r, ms));
      gate.running--;
      return SUMMARY;
    },
  });
}

describe('GatePasses', () => {
  it('merges requests into one pass, and a request during a pass into one more after it', async () => {
    const gate = slowGate(100);
    const passes = new GatePasses({
      gate,
      logger: mockServices.logger.mock(),
      coalesceMs: 20,
    });
    for (let i = 0; i < 5; i++) passes.request('Organization changed');
    while (!gate.started) await new Promise(r => setTimeout(r, 5));
    expect(gate.started).toBe(1);
    // during the pass: one more after it, however many
    passes.request('Product changed');
    passes.request('Cluster changed');
    await passes.settled();
    expect(gate.started).toBe(2);
    expect(passes.passes).toBe(2);
  });

  it('runs the scheduled pass and the requested ones one at a time', async () => {
    const gate = slowGate(50);
    const passes = new GatePasses({
      gate,
      logger: mockServices.logger.mock(),
      coalesceMs: 0,
    });
    passes.request('Release changed');
    await Promise.all([passes.run(), passes.run()]);
    await passes.settled();
    expect(gate.started).toBe(3);
    expect(gate.overlapped).toBe(false);
  });

  it('passes nothing on a change while the installation may not write, nor after stop', async () => {
    const gate = slowGate(1);
    let allowed = false;
    const passes = new GatePasses({
      gate,
      logger: mockServices.logger.mock(),
      allows: () => allowed,
      coalesceMs: 0,
    });
    passes.request('Organization changed');
    await passes.settled();
    expect(gate.started).toBe(0);
    allowed = true;
    passes.request('Organization changed');
    await passes.settled();
    expect(gate.started).toBe(1);
    passes.stop();
    passes.request('Organization changed');
    await passes.settled();
    expect(gate.started).toBe(1);
  });

  it('logs a failed pass and keeps serving requests', async () => {
    const logger = mockServices.logger.mock();
    let fail = true;
    const passes = new GatePasses({
      gate: {
        pass: async () => {
          if (fail) throw new Error('API server down');
          return SUMMARY;
        },
      },
      logger,
      coalesceMs: 0,
    });
    passes.request('Cluster changed');
    await passes.settled();
    expect(logger.warn).toHaveBeenCalledWith(
      'infrared: release gate pass on a change (Cluster changed) failed: API server down',
    );
    fail = false;
    passes.request('Cluster changed');
    await passes.settled();
    expect(passes.passes).toBe(1);
  });
});

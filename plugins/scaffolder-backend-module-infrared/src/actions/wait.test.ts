import {
  actionContext,
  clusterView,
  FakeInfraredApi,
} from '../__testUtils__/fakeInfraredApi';
import { createWaitForClusterAction, pollDelayMs } from './wait';

describe('infrared:cluster:wait', () => {
  it('reads the cluster until Connected and Registered, then outputs the Argo CD server and the gitops path', async () => {
    const api = new FakeInfraredApi();
    api.views = [
      clusterView('edge-demo', { Connected: 'False' }),
      clusterView('edge-demo', { Connected: 'True', Registered: 'False' }),
      clusterView(
        'edge-demo',
        { Connected: 'True', Registered: 'True' },
        {
          argoServer: 'https://203.0.113.10:6443',
          gitopsPath:
            'registry/clusters/infrared-mgmt/components/cluster-edge-demo.yaml',
        },
      ),
    ];
    const action = createWaitForClusterAction({ infraredApi: api.for });
    const { ctx } = actionContext({ input: { name: 'edge-demo' } });
    await action.handler(ctx as any);
    expect(api.reads).toBe(3);
    expect(ctx.output).toHaveBeenCalledWith(
      'argoServer',
      'https://203.0.113.10:6443',
    );
    expect(ctx.output).toHaveBeenCalledWith(
      'gitopsPath',
      'registry/clusters/infrared-mgmt/components/cluster-edge-demo.yaml',
    );
  });

  it('waits for a provision phase instead when asked', async () => {
    const api = new FakeInfraredApi();
    const withPhase = (phase: any) =>
      clusterView(
        'built-a',
        {},
        {
          provision: {
            action: 'plan',
            status: { action: 'plan', generation: 1, job: 'j', phase },
          },
        },
      );
    api.views = [withPhase('Running'), withPhase('Succeeded')];
    const action = createWaitForClusterAction({ infraredApi: api.for });
    const { ctx } = actionContext({
      input: { name: 'built-a', provisionPhase: 'Succeeded' },
    });
    await action.handler(ctx as any);
    expect(api.reads).toBe(2);
    expect(ctx.output).toHaveBeenCalledWith('provisionPhase', 'Succeeded');
  });

  it("fails at once with the Job's message when the Job failed", async () => {
    const api = new FakeInfraredApi();
    api.views = [
      clusterView(
        'built-b',
        { Connected: 'False' },
        {
          provision: {
            action: 'apply',
            status: {
              action: 'apply',
              generation: 2,
              job: 'j',
              phase: 'Failed',
              message: 'Error: no credentials',
            },
          },
        },
      ),
    ];
    const action = createWaitForClusterAction({ infraredApi: api.for });
    const { ctx } = actionContext({ input: { name: 'built-b' } });
    await expect(action.handler(ctx as any)).rejects.toThrow(
      'the apply Job of Cluster built-b failed: Error: no credentials',
    );
    expect(api.reads).toBe(1);
  });

  it('stops at the timeout and names the conditions', async () => {
    const api = new FakeInfraredApi();
    api.views = [
      clusterView('edge-slow', { Connected: 'True', Registered: 'False' }),
    ];
    const action = createWaitForClusterAction({ infraredApi: api.for });
    const { ctx } = actionContext({
      input: { name: 'edge-slow', timeoutSeconds: 1 },
    });
    await expect(action.handler(ctx as any)).rejects.toThrow(
      'Cluster edge-slow did not reach Registered within 1 s: Connected True; Registered False (Registered is not done yet)',
    );
    expect(api.reads).toBeGreaterThanOrEqual(2);
    expect(api.reads).toBeLessThanOrEqual(4);
  });

  it('dry run: reads nothing', async () => {
    const api = new FakeInfraredApi();
    const action = createWaitForClusterAction({ infraredApi: api.for });
    const { ctx } = actionContext({
      input: { name: 'edge-demo' },
      isDryRun: true,
    });
    await action.handler(ctx as any);
    expect(api.callers).toEqual([]);
    expect(ctx.output).toHaveBeenCalledWith('argoServer', '');
  });

  it('polls every 500 ms for 15 s, then every 2 s', () => {
    expect(pollDelayMs(0)).toBe(500);
    expect(pollDelayMs(14_999)).toBe(500);
    expect(pollDelayMs(15_000)).toBe(2_000);
  });
});

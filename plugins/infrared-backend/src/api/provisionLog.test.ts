import { mockServices } from '@backstage/backend-test-utils';
import { KubeApiError } from '@infrared-clusters/infrared-kube';
import { PROVISIONING_TASK_ID } from '../provisioning';
import { startHarness } from './__testUtils__/harness';

jest.setTimeout(60_000);

/**
 * GET .../provision/log while the Job's Pod waits to start (no node took it yet): the API server
 * answers a Pending Pod's log with an error, so the route answers the empty log, not 503.
 */
describe('REST API: the provision log of a Job whose Pod has not started', () => {
  it('answers 200 with an empty log and never asks for the log', async () => {
    const h = await startHarness({
      features: [
        mockServices.rootConfig.factory({
          data: {
            infrared: {
              provisioning: {
                templates: [
                  {
                    module: 'local/demo',
                    version: 'v1',
                    title: 'Demo',
                    source: '/repo/examples/tofu/demo',
                    variables: [],
                  },
                ],
              },
            },
          },
        }),
      ],
    });
    const made = await h.send('post', '/v1/clusters', {
      body: {
        name: 'built',
        template: { module: 'local/demo', version: 'v1' },
        provision: {},
      },
    });
    expect(made.status).toBe(201);
    await h.scheduler.triggerTask(PROVISIONING_TASK_ID);
    h.provisioning.pods.push({
      metadata: {
        name: 'tofu-built-1-plan-abcde',
        labels: { 'batch.kubernetes.io/job-name': 'tofu-built-1-plan' },
      },
      status: { phase: 'Pending' },
    });
    await h.scheduler.triggerTask(PROVISIONING_TASK_ID);
    h.provisioning.readLog = async () => {
      throw new KubeApiError(
        400,
        'BadRequest',
        'container is waiting to start',
      );
    };
    const res = await h.send('get', '/v1/clusters/built/provision/log');
    expect([res.status, res.body]).toEqual([
      200,
      { job: 'tofu-built-1-plan', pod: 'tofu-built-1-plan-abcde', log: '' },
    ]);
  });
});

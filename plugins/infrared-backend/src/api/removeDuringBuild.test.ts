import { mockServices } from '@backstage/backend-test-utils';
import { PROVISIONING_TASK_ID } from '../provisioning';
import { startHarness, type Harness } from './__testUtils__/harness';

jest.setTimeout(60_000);

/**
 * Issue 20.4: removing a Cluster never cuts a running build short. While an apply or destroy Job
 * of the Cluster waits or runs (or the spec asks for one the next pass makes), DELETE answers 409
 * naming the Job and its phase, and the Cluster stays; a plan, a finished or a failed Job does not
 * hold it back.
 */
describe('REST API: DELETE /v1/clusters/{name} while an OpenTofu apply or destroy runs', () => {
  const TEMPLATES = [
    {
      module: 'local/demo',
      version: 'v1',
      title: 'Demo',
      description: 'A local API server',
      source: '/repo/examples/tofu/demo',
      variables: [{ name: 'name', type: 'string' }],
    },
  ];
  const harness = () =>
    startHarness({
      features: [
        mockServices.rootConfig.factory({
          data: { infrared: { provisioning: { templates: TEMPLATES } } },
        }),
      ],
    });
  const pass = (h: Harness) => h.scheduler.triggerTask(PROVISIONING_TASK_ID);
  const job = (h: Harness, name: string) =>
    h.provisioning.jobs.find(j => j.metadata.name === name)!;
  const finish = (h: Harness, name: string, type = 'Complete') => {
    job(h, name).status = { conditions: [{ type, status: 'True' }] };
  };

  /** A built Cluster whose plan succeeded and whose apply was asked for. */
  async function applying(h: Harness) {
    const made = await h.send('post', '/v1/clusters', {
      body: {
        name: 'built',
        template: { module: 'local/demo', version: 'v1' },
        provision: { variables: { name: 'built' } },
      },
    });
    expect(made.status).toBe(201);
    await pass(h);
    finish(h, 'tofu-built-1-plan');
    await pass(h);
    const apply = await h.send('put', '/v1/clusters/built/provision/action', {
      body: { action: 'apply', acknowledgeBillable: true },
    });
    expect(apply.status).toBe(200);
  }

  it('answers 409 naming the apply Job and its phase, Waiting then Running, and removes nothing; 200 once it has finished', async () => {
    const h = await harness();
    await applying(h);
    // asked for, the Job not made yet: the next pass would start it
    let res = await h.send('delete', '/v1/clusters/built');
    expect(res.status).toBe(409);
    expect(res.body.error.message).toMatch(
      /cluster built cannot be removed while its OpenTofu apply runs: Job tofu-built-2-apply is Waiting/,
    );
    await pass(h);
    expect(job(h, 'tofu-built-2-apply')).toBeDefined();
    res = await h.send('delete', '/v1/clusters/built');
    expect(res.status).toBe(409);
    expect(res.body.error.message).toMatch(/Job tofu-built-2-apply is Waiting/);
    job(h, 'tofu-built-2-apply').status = { active: 1, ready: 1 };
    res = await h.send('delete', '/v1/clusters/built');
    expect(res.status).toBe(409);
    expect(res.body.error.message).toMatch(
      /Job tofu-built-2-apply is Running\. Removing the cluster now would leave cloud resources half built that nobody tracks/,
    );
    expect(h.api.clusterStore.get('built')).toBeDefined();

    finish(h, 'tofu-built-2-apply');
    await pass(h);
    res = await h.send('delete', '/v1/clusters/built');
    expect(res.status).toBe(200);
    expect(h.api.clusterStore.get('built')).toBeUndefined();
  });

  it('a destroy holds removal back the same way', async () => {
    const h = await harness();
    await applying(h);
    await pass(h);
    finish(h, 'tofu-built-2-apply');
    await pass(h);
    await h.send('put', '/v1/clusters/built/provision/action', {
      body: { action: 'destroy', acknowledgeBillable: true },
    });
    await pass(h);
    const res = await h.send('delete', '/v1/clusters/built');
    expect(res.status).toBe(409);
    expect(res.body.error.message).toMatch(
      /OpenTofu destroy runs: Job tofu-built-3-destroy is Waiting\. Removing the cluster now would leave cloud resources half destroyed/,
    );
  });

  it('a running plan does not hold removal back', async () => {
    const h = await harness();
    await h.send('post', '/v1/clusters', {
      body: {
        name: 'built',
        template: { module: 'local/demo', version: 'v1' },
        provision: { variables: { name: 'built' } },
      },
    });
    await pass(h);
    job(h, 'tofu-built-1-plan').status = { active: 1, ready: 1 };
    expect((await h.send('delete', '/v1/clusters/built')).status).toBe(200);
  });

  it('a failed apply does not hold removal back', async () => {
    const h2 = await harness();
    await applying(h2);
    await pass(h2);
    finish(h2, 'tofu-built-2-apply', 'Failed');
    await pass(h2);
    expect((await h2.send('delete', '/v1/clusters/built')).status).toBe(200);
  });
});

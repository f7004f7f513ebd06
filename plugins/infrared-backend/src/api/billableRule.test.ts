import { mockServices } from '@backstage/backend-test-utils';
import { AuthorizeResult } from '@backstage/plugin-permission-common';
import { PROVISIONING_TASK_ID } from '../provisioning';
import { startHarness, type Harness } from './__testUtils__/harness';

// each case starts a backend: on a loaded 2-core machine that passes jest's 5 s default
jest.setTimeout(60_000);

/**
 * Issue 20.2: apply and destroy follow one rule on every route. POST /v1/clusters with
 * provision.action apply or destroy needs permission infrared.cluster.provision (besides create)
 * and acknowledgeBillable: true, as PUT .../provision/action does; refused, nothing is written.
 */
describe('REST API: apply and destroy need the provision permission and the acknowledgement on POST too', () => {
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
  const denying = (permission: string) =>
    mockServices.permissions.mock({
      authorize: async requests =>
        requests.map((r: any) => ({
          result:
            r.permission.name === permission
              ? AuthorizeResult.DENY
              : AuthorizeResult.ALLOW,
        })),
    }).factory;
  const harness = (extra: any[] = []) =>
    startHarness({
      features: [
        mockServices.rootConfig.factory({
          data: { infrared: { provisioning: { templates: TEMPLATES } } },
        }),
        ...extra,
      ],
    });
  const body = (action: string, acknowledgeBillable?: boolean) => ({
    name: 'built',
    provider: 'local',
    template: { module: 'local/demo', version: 'v1' },
    provision: { action, variables: { name: 'built' } },
    ...(acknowledgeBillable === undefined ? {} : { acknowledgeBillable }),
  });
  /** Nothing of the cluster was written: no Cluster, no Secret, no Job, even after a pass. */
  const nothingWritten = async (h: Harness) => {
    await h.scheduler.triggerTask(PROVISIONING_TASK_ID);
    expect(h.api.clusterStore.get('built')).toBeUndefined();
    expect(h.api.secretStore.size).toBe(0);
    expect(h.provisioning.jobs).toEqual([]);
  };

  it.each(['apply', 'destroy'])(
    'POST with action %s and no acknowledgeBillable: 400 naming the field, nothing written',
    async action => {
      const h = await harness();
      const res = await h.send('post', '/v1/clusters', { body: body(action) });
      expect(res.status).toBe(400);
      expect(res.body.error.errors).toEqual([
        expect.objectContaining({ field: 'acknowledgeBillable' }),
      ]);
      await nothingWritten(h);
    },
  );

  it('POST with action apply and acknowledgeBillable false: 400, nothing written', async () => {
    const h = await harness();
    const res = await h.send('post', '/v1/clusters', {
      body: body('apply', false),
    });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(
      /acknowledgeBillable: apply creates real cloud resources/,
    );
    await nothingWritten(h);
  });

  it.each(['apply', 'destroy'])(
    'POST with action %s by a caller without infrared.cluster.provision: 403 naming it, before any validation, nothing written',
    async action => {
      const h = await harness([denying('infrared.cluster.provision')]);
      for (const sent of [body(action, true), body(action)]) {
        const res = await h.send('post', '/v1/clusters', { body: sent });
        expect(res.status).toBe(403);
        expect(res.body.error.message).toMatch(
          /permission infrared\.cluster\.provision/,
        );
      }
      await nothingWritten(h);
    },
  );

  it('POST with action plan needs neither: a caller without infrared.cluster.provision gets its Cluster and plan Job', async () => {
    const h = await harness([denying('infrared.cluster.provision')]);
    const res = await h.send('post', '/v1/clusters', { body: body('plan') });
    expect(res.status).toBe(201);
    await h.scheduler.triggerTask(PROVISIONING_TASK_ID);
    expect(h.provisioning.jobs.map(j => j.metadata.name)).toEqual([
      'tofu-built-1-plan',
    ]);
  });

  it('POST with action apply, the permission and the acknowledgement: the apply Job, and the acknowledgement is not stored', async () => {
    const h = await harness();
    const res = await h.send('post', '/v1/clusters', {
      body: body('apply', true),
    });
    expect(res.status).toBe(201);
    const stored = h.api.clusterStore.get('built')!;
    expect(stored.spec.provision).toEqual({
      action: 'apply',
      variables: { name: 'built' },
    });
    expect(JSON.stringify(stored)).not.toMatch(/acknowledge/i);
    await h.scheduler.triggerTask(PROVISIONING_TASK_ID);
    expect(h.provisioning.jobs.map(j => j.metadata.name)).toEqual([
      'tofu-built-1-apply',
    ]);
  });

  it('the refusal is word for word the action route’s', async () => {
    const h = await harness();
    const post = await h.send('post', '/v1/clusters', { body: body('apply') });
    await h.send('post', '/v1/clusters', { body: body('plan') });
    const put = await h.send('put', '/v1/clusters/built/provision/action', {
      body: { action: 'apply' },
    });
    expect(put.status).toBe(400);
    expect(post.body.error.errors).toEqual(put.body.error.errors);
  });
});

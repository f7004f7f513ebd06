import type { ClusterTemplate } from '@infrared-clusters/plugin-infrared-common';
import {
  actionContext,
  FakeInfraredApi,
} from '../__testUtils__/fakeInfraredApi';
import { createBuildClusterAction } from './build';

const DEMO: ClusterTemplate = {
  module: 'local/demo-cluster',
  version: 'v1',
  title: 'Demo cluster',
  variables: [
    { name: 'name', type: 'string' },
    { name: 'data_dir', type: 'string', default: './.data' },
    { name: 'nodes', type: 'number' },
  ],
};

describe('infrared:cluster:build', () => {
  it('creates the Cluster from the offered template, starting with plan, with the name variable and the credentials Secret', async () => {
    const api = new FakeInfraredApi([DEMO]);
    const action = createBuildClusterAction({ infraredApi: api.for });
    const { ctx } = actionContext({
      input: {
        name: 'built-a',
        template: 'local/demo-cluster@v1',
        variables: { nodes: '2' },
        credentialsSecret: 'demo-credentials',
        provider: 'local',
      },
    });
    await action.handler(ctx as any);
    expect(api.registered).toEqual([
      {
        name: 'built-a',
        provider: 'local',
        template: { module: 'local/demo-cluster', version: 'v1' },
        provision: {
          action: 'plan',
          variables: { nodes: '2', name: 'built-a' },
          credentialsSecretRef: { name: 'demo-credentials' },
        },
      },
    ]);
    expect(ctx.output).toHaveBeenCalledWith('name', 'built-a');
    expect(ctx.output).toHaveBeenCalledWith(
      'template',
      'local/demo-cluster@v1',
    );
  });

  it('only ever plans: an apply asked for in the input never reaches the API (issue 20.2: apply needs the panel, the provision permission and the acknowledgement)', async () => {
    const api = new FakeInfraredApi([DEMO]);
    const action = createBuildClusterAction({ infraredApi: api.for });
    const { ctx } = actionContext({
      input: {
        name: 'built-c',
        template: 'local/demo-cluster@v1',
        variables: { nodes: '1' },
        action: 'apply',
        acknowledgeBillable: true,
        provision: { action: 'apply' },
      },
    });
    await action.handler(ctx as any);
    const sent = api.registered[0] as any;
    expect(sent.provision.action).toBe('plan');
    expect(sent).not.toHaveProperty('acknowledgeBillable');
    expect(Object.keys(sent).sort()).toEqual(['name', 'provision', 'template']);
  });

  it('keeps a name variable that was given', async () => {
    const api = new FakeInfraredApi([DEMO]);
    const action = createBuildClusterAction({ infraredApi: api.for });
    const { ctx } = actionContext({
      input: {
        name: 'built-b',
        template: 'local/demo-cluster@v1',
        variables: { name: 'other', nodes: '1' },
      },
    });
    await action.handler(ctx as any);
    expect((api.registered[0] as any).provision.variables).toEqual({
      name: 'other',
      nodes: '1',
    });
  });

  it('passes the API refusal of a template it does not offer', async () => {
    const api = new FakeInfraredApi([DEMO]);
    const action = createBuildClusterAction({ infraredApi: api.for });
    const { ctx } = actionContext({
      input: { name: 'built-c', template: 'acme/eks@v9' },
    });
    await expect(action.handler(ctx as any)).rejects.toThrow(
      /400 Bad Request: template\S*: .*acme\/eks@v9/,
    );
    expect(api.registered).toEqual([]);
  });

  it('dry run: checks the request against the offered templates and creates nothing', async () => {
    const api = new FakeInfraredApi([DEMO]);
    const action = createBuildClusterAction({ infraredApi: api.for });
    const ok = actionContext({
      input: {
        name: 'built-d',
        template: 'local/demo-cluster@v1',
        variables: { nodes: '1' },
      },
      isDryRun: true,
    });
    await action.handler(ok.ctx as any);
    expect(ok.log()).toContain(
      'dry run: would create Cluster built-d built from local/demo-cluster@v1, starting with plan',
    );

    const missing = actionContext({
      input: {
        name: 'built-e',
        template: 'local/demo-cluster@v1',
        variables: { nodes: 'two' },
      },
      isDryRun: true,
    });
    await expect(action.handler(missing.ctx as any)).rejects.toThrow(
      /invalid request: provision\.variables\.nodes: /,
    );
    expect(api.registered).toEqual([]);
  });
});

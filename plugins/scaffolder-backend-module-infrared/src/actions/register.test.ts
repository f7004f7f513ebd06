import { mockCredentials } from '@backstage/backend-test-utils';
import {
  actionContext,
  FakeInfraredApi,
} from '../__testUtils__/fakeInfraredApi';
import { createRegisterClusterAction } from './register';

const KUBECONFIG = `apiVersion: v1
kind: Config
clusters:
- name: edge
  cluster:
    server: https://203.0.113.10:6443
    certificate-authority-data: Q0EtUEVN
users:
- name: edge
  user:
    token: secret-token-abc123
contexts:
- name: edge
  context: {cluster: edge, user: edge}
current-context: edge
`;

describe('infrared:cluster:register', () => {
  const runner = mockCredentials.user('user:default/runner');

  it('posts the kubeconfig from the task secret as the runner, and logs no part of it', async () => {
    const api = new FakeInfraredApi();
    const action = createRegisterClusterAction({ infraredApi: api.for });
    const { ctx, log } = actionContext({
      input: {
        name: 'edge-demo',
        flavor: 'k3s',
        provider: 'local',
        region: 'us-east-1',
      },
      secrets: { kubeconfig: KUBECONFIG },
      initiator: runner,
    });
    await action.handler(ctx as any);

    expect(api.registered).toEqual([
      {
        name: 'edge-demo',
        flavor: 'k3s',
        provider: 'local',
        region: 'us-east-1',
        kubeconfig: KUBECONFIG,
      },
    ]);
    expect(api.callers).toEqual([runner]);
    expect(ctx.output).toHaveBeenCalledWith('name', 'edge-demo');
    expect(ctx.output).toHaveBeenCalledWith('connection', 'kubeconfig');
    expect(log()).toContain('registered Cluster edge-demo');
    expect(log()).not.toContain('secret-token-abc123');
    expect(JSON.stringify((ctx.output as jest.Mock).mock.calls)).not.toContain(
      'secret-token',
    );
  });

  it('takes the kubeconfig from the secret the input names', async () => {
    const api = new FakeInfraredApi();
    const action = createRegisterClusterAction({ infraredApi: api.for });
    const { ctx } = actionContext({
      input: { name: 'edge-b', kubeconfigSecret: 'edgeKubeconfig' },
      secrets: { edgeKubeconfig: KUBECONFIG },
    });
    await action.handler(ctx as any);
    expect(api.registered[0]).toEqual({
      name: 'edge-b',
      kubeconfig: KUBECONFIG,
    });
  });

  it('registers the management cluster with inCluster and no kubeconfig', async () => {
    const api = new FakeInfraredApi();
    const action = createRegisterClusterAction({ infraredApi: api.for });
    const { ctx } = actionContext({
      input: { name: 'infrared-mgmt', inCluster: true },
      secrets: { kubeconfig: KUBECONFIG },
    });
    await action.handler(ctx as any);
    expect(api.registered).toEqual([
      { name: 'infrared-mgmt', inCluster: true },
    ]);
    expect(ctx.output).toHaveBeenCalledWith('connection', 'inCluster');
  });

  it('says which secret is missing when there is neither kubeconfig nor inCluster, and sends nothing', async () => {
    const api = new FakeInfraredApi();
    const action = createRegisterClusterAction({ infraredApi: api.for });
    const { ctx } = actionContext({ input: { name: 'edge-c' } });
    await expect(action.handler(ctx as any)).rejects.toThrow(
      'the task has no secret "kubeconfig": take the kubeconfig with a secret field (ui:field: Secret) named kubeconfig, or set inCluster: true',
    );
    expect(api.callers).toEqual([]);
  });

  it('passes the API refusal of a caller who is not a platform admin through', async () => {
    const api = new FakeInfraredApi();
    api.refuseWrites = true;
    const action = createRegisterClusterAction({ infraredApi: api.for });
    const { ctx } = actionContext({
      input: { name: 'edge-d' },
      secrets: { kubeconfig: KUBECONFIG },
    });
    await expect(action.handler(ctx as any)).rejects.toThrow(
      'only platform admins may register clusters (permission infrared.cluster.create)',
    );
    expect(api.registered).toEqual([]);
  });

  it('dry run: checks the request with the API rules, calls nothing and outputs the name', async () => {
    const api = new FakeInfraredApi();
    const action = createRegisterClusterAction({ infraredApi: api.for });
    const { ctx, log } = actionContext({
      input: { name: 'edge-e', provider: 'local' },
      secrets: { kubeconfig: KUBECONFIG },
      isDryRun: true,
    });
    await action.handler(ctx as any);
    expect(api.callers).toEqual([]);
    expect(ctx.output).toHaveBeenCalledWith('name', 'edge-e');
    expect(log()).toContain('dry run: would register Cluster edge-e');
  });

  it('dry run: refuses an exec kubeconfig with the reason the API gives', async () => {
    const api = new FakeInfraredApi();
    const action = createRegisterClusterAction({ infraredApi: api.for });
    const exec = KUBECONFIG.replace(
      '    token: secret-token-abc123',
      '    exec:\n      apiVersion: client.authentication.k8s.io/v1beta1\n      command: aws',
    );
    const { ctx } = actionContext({
      input: { name: 'edge-f' },
      secrets: { kubeconfig: exec },
      isDryRun: true,
    });
    await expect(action.handler(ctx as any)).rejects.toThrow(
      /invalid request: kubeconfig\S*: exec credential plugins \("aws"\) are refused/,
    );
    expect(api.callers).toEqual([]);
  });
});

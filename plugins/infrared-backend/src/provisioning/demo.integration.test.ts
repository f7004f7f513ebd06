/*
 * The demo template (examples/tofu/demo-cluster) through the whole plugin, for real: POST
 * /v1/clusters with the template -> a plan Job -> its summary and log in the API -> apply with the
 * billable acknowledgement -> the module starts another local API server through devenv and
 * outputs its kubeconfig -> auto-registration -> Connected and Registered -> destroy stops it. On
 * the devenv control plane with its node agent and a real tofu, the backend as the deploy/rbac
 * ServiceAccount, the local gitops publisher.
 */
import {
  eventually,
  getTestControlPlane,
  KubeClient as AdminClient,
  startNodeAgent,
  stopControlPlane,
  uniqueName,
  removeTestDir,
} from '@internal/devenv';
import type { ClusterView } from '@infrared-clusters/plugin-infrared-common';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  startBackendOnControlPlane,
  type BackendOnControlPlane,
} from '../__testUtils__/backendOnControlPlane';
import { CLUSTERS_RECONCILE_TASK_ID, PROVISIONING_TASK_ID } from '../plugin';

jest.setTimeout(20 * 60_000);

const ROOT = path.resolve(__dirname, '../../../..');
const cp = getTestControlPlane();
const management = cp.cluster('management');

describe('the demo template, from the API to Registered and back', () => {
  const name = uniqueName('demo');
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'infrared-demo-'));
  let backend: BackendOnControlPlane;
  let agent: Awaited<ReturnType<typeof startNodeAgent>>;

  const send = (
    method: 'get' | 'post' | 'put' | 'delete',
    url: string,
    body?: object,
  ) => backend.send(method, url, body);
  const view = async (): Promise<ClusterView> =>
    (await send('get', `/v1/clusters/${name}`)).body;
  const passes = async () => {
    await backend.pass(PROVISIONING_TASK_ID);
    await backend.pass(CLUSTERS_RECONCILE_TASK_ID);
  };
  const until = (check: (v: ClusterView) => boolean) =>
    eventually(
      async () => {
        await passes();
        const v = await view();
        return check(v) && v;
      },
      240_000,
      500,
    );

  beforeAll(async () => {
    backend = await startBackendOnControlPlane({
      controlPlane: cp,
      gitops: path.join(tmp, 'gitops.git'),
      // the tofu Jobs' Pods run on a node agent of this test's own
      beforeStart: async () => {
        agent = await startNodeAgent({
          cluster: management,
          nodeName: uniqueName('demo-node'),
          selector: `app.kubernetes.io/name=infrared-tofu,infrared.darkshift.io/cluster=${name}`,
        });
      },
      infrared: {
        provisioning: {
          // No watch of the Jobs here: this backend shares the control plane with other
          // tests' backends, and a watch-triggered pass would judge their Clusters by this
          // backend's templates and allow-list (provisioning.integration's failed so in CI).
          // The passes are triggered instead.
          watch: false,
          templates: [
            {
              module: 'local/demo-cluster',
              title: 'Demo cluster',
              source: path.join(ROOT, 'examples/tofu/demo-cluster'),
              variables: [
                { name: 'name' },
                {
                  name: 'devenv_cli',
                  default: path.join(ROOT, 'packages/devenv/bin/devenv.js'),
                },
                { name: 'data_dir', default: path.join(tmp, 'clusters') },
              ],
            },
          ],
        },
      },
    });
    await passes();
  });

  afterAll(async () => {
    const state = path.join(tmp, 'clusters', name, 'state.json');
    if (fs.existsSync(state)) {
      // a failed run leaves its API server: stop it as destroy would
      await stopControlPlane(state).catch(() => undefined);
    }
    await AdminClient.fromKubeconfig(management.kubeconfig).request(
      'DELETE',
      `/apis/infrared.darkshift.io/v1alpha1/clusters/${name}`,
    );
    await agent?.stop();
    await backend?.stop();
    removeTestDir(tmp);
  });

  it('plan, apply with the acknowledgement, Registered, destroy (Destroyed, no Argo CD Secret), apply again, destroy', async () => {
    const templates = await send('get', '/v1/provisioning/templates');
    expect(templates.body.items.map((t: any) => t.module)).toEqual([
      'local/demo-cluster',
    ]);

    const created = await send('post', '/v1/clusters', {
      name,
      flavor: 'k3s',
      provider: 'local',
      region: 'local',
      template: { module: 'local/demo-cluster' },
      provision: { variables: { name } },
    });
    expect(created.status).toBe(201);

    const admin = AdminClient.fromKubeconfig(management.kubeconfig);
    let v = await until(x => x.provision?.status?.phase === 'Succeeded');
    expect(v.provision?.status).toMatchObject({
      action: 'plan',
      job: `tofu-${name}-1-plan`,
      summary: {
        add: 1,
        change: 0,
        destroy: 0,
        resources: [{ address: 'terraform_data.cluster', actions: ['create'] }],
      },
    });
    const log = await send('get', `/v1/clusters/${name}/provision/log`);
    expect(log.body.log).toMatch(/Plan: 1 to add, 0 to change, 0 to destroy/);

    expect(
      (
        await send('put', `/v1/clusters/${name}/provision/action`, {
          action: 'apply',
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await send('put', `/v1/clusters/${name}/provision/action`, {
          action: 'apply',
          acknowledgeBillable: true,
        })
      ).status,
    ).toBe(200);

    v = await until(
      x =>
        x.conditions.some(
          c => c.type === 'Registered' && c.status === 'True',
        ) && x.provision?.status?.phase === 'Succeeded',
    );
    expect(v.connection).toBe('kubeconfig');
    expect(v.provision?.status).toMatchObject({
      action: 'apply',
      phase: 'Succeeded',
    });
    expect(v.conditions.find(c => c.type === 'Connected')).toMatchObject({
      status: 'True',
    });
    expect(v.conditions.find(c => c.type === 'Provisioned')).toMatchObject({
      status: 'True',
      reason: 'Applied',
    });
    const built = JSON.parse(
      fs.readFileSync(path.join(tmp, 'clusters', name, 'state.json'), 'utf8'),
    );
    expect(v.argoServer).toBe(built.clusters[0].server);
    const builtKubeconfig = fs.readFileSync(
      built.clusters[0].kubeconfigPath,
      'utf8',
    );

    expect(
      (
        await send('put', `/v1/clusters/${name}/provision/action`, {
          action: 'destroy',
          acknowledgeBillable: true,
        })
      ).status,
    ).toBe(200);
    v = await until(
      x =>
        x.provision?.status?.action === 'destroy' &&
        x.provision.status.phase === 'Succeeded',
    );
    expect(v.conditions.find(c => c.type === 'Provisioned')).toMatchObject({
      status: 'False',
      reason: 'Destroyed',
    });
    // the demo's API server is gone
    const gone = await AdminClient.fromKubeconfig(builtKubeconfig)
      .request('GET', '/readyz', undefined, undefined, 2000)
      .then(() => false)
      .catch(() => true);
    expect(gone).toBe(true);

    // after the destroy (issue 23.1): not Registered, and Argo CD has no Secret for the dead server
    const argoSecret = () =>
      admin.request('GET', `/api/v1/namespaces/argocd/secrets/cluster-${name}`);
    v = await until(x =>
      x.conditions.some(
        c => c.type === 'Registered' && c.reason === 'Destroyed',
      ),
    );
    expect(v.conditions.find(c => c.type === 'Registered')).toMatchObject({
      status: 'False',
      reason: 'Destroyed',
    });
    expect(v.argoSecret).toBeUndefined();
    expect((await argoSecret()).status).toBe(404);

    // an apply of a new generation builds it again and registers the new server
    expect(
      (
        await send('put', `/v1/clusters/${name}/provision/action`, {
          action: 'apply',
          acknowledgeBillable: true,
        })
      ).status,
    ).toBe(200);
    v = await until(
      x =>
        x.provision?.status?.action === 'apply' &&
        x.conditions.some(c => c.type === 'Registered' && c.status === 'True'),
    );
    const rebuilt = JSON.parse(
      fs.readFileSync(path.join(tmp, 'clusters', name, 'state.json'), 'utf8'),
    );
    expect(v.argoServer).toBe(rebuilt.clusters[0].server);
    expect(v.conditions.find(c => c.type === 'Connected')).toMatchObject({
      status: 'True',
    });
    expect((await argoSecret()).status).toBe(200);

    expect(
      (
        await send('put', `/v1/clusters/${name}/provision/action`, {
          action: 'destroy',
          acknowledgeBillable: true,
        })
      ).status,
    ).toBe(200);
    await until(x =>
      x.conditions.some(
        c => c.type === 'Registered' && c.reason === 'Destroyed',
      ),
    );
    expect((await argoSecret()).status).toBe(404);
    expect((await send('delete', `/v1/clusters/${name}`)).status).toBe(200);
  });
});

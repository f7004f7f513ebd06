import {
  mockCredentials,
  mockServices,
  startTestBackend,
} from '@backstage/backend-test-utils';
import {
  ensureArgoCd,
  eventually,
  KubeClient as AdminClient,
  startArgoCd,
  startControlPlane,
  uniqueName,
  type ArgoCd,
  type ControlPlane,
} from '@internal/devenv';
import {
  ClusterView,
  findCondition,
} from '@infrared-clusters/plugin-infrared-common';
import {
  KubeClient,
  KubeClusterProber,
  kubeConfigFromText,
  managementApi,
  RequestCounter,
} from '@infrared-clusters/plugin-infrared-node';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { infraredKubeServiceFactory } from '../kube';
import { tokenKubeconfig } from '../kube/__testUtils__/workload';
import { infraredPlugin } from '../plugin';
import { prepareManagementCluster } from './__testUtils__/managementCluster';
import { SerialScheduler } from './__testUtils__/serialScheduler';

// The first run on a machine builds Argo CD from Go modules (about 14 min cold, once: cached).
const BUILD_MS = 40 * 60_000;
jest.setTimeout(5 * 60_000);

const TASK = 'infrared-clusters-reconcile';

/** A bare git repository with one ConfigMap under demo/: what the Application syncs. */
function demoRepo(dir: string, configMap: string): string {
  const work = path.join(dir, 'work');
  fs.mkdirSync(path.join(work, 'demo'), { recursive: true });
  fs.writeFileSync(
    path.join(work, 'demo', 'configmap.yaml'),
    `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${configMap}\n  namespace: default\ndata:\n  hello: argocd\n`,
  );
  const git = (...args: string[]) =>
    execFileSync(
      'git',
      ['-c', 'user.name=devenv', '-c', 'user.email=devenv@localhost', ...args],
      { cwd: work, stdio: 'pipe' },
    );
  git('init', '-q', '-b', 'main');
  git('add', '.');
  git('commit', '-q', '-m', 'demo ConfigMap');
  const bare = path.join(dir, 'demo.git');
  execFileSync('git', ['clone', '-q', '--bare', work, bare], { stdio: 'pipe' });
  return bare;
}

/**
 * The real Argo CD (built from Go modules, run by devenv's startArgoCd) on a control plane of this
 * test's own (its application-controller would take over the Applications other tests write on
 * the shared one), reading a Cluster registered through the Infrared backend.
 */
describe('a real Argo CD reads the cluster Secret Infrared writes', () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'infrared-argocd-it-'));
  const scheduler = new SerialScheduler();
  let cp: ControlPlane;
  let argo: ArgoCd;
  let server: any;
  const figures: Record<string, number> = {};

  const argoGet = async (url: string, token?: string) => {
    const res = await fetch(`${argo.url}${url}`, {
      headers: token ? { Authorization: `Bearer ${token}` } : {},
      signal: AbortSignal.timeout(10_000),
    });
    return { status: res.status, body: (await res.json()) as any };
  };
  const send = (method: 'get' | 'post', url: string, body?: object) => {
    const req = request(server)
      [method](`/api/infrared${url}`)
      .set('Authorization', mockCredentials.user.header());
    return body ? req.send(body) : req;
  };

  beforeAll(async () => {
    const built = ensureArgoCd();
    if (built.builtSeconds) figures.argocdBuildSeconds = built.builtSeconds;
    cp = await startControlPlane({
      clusters: ['management', 'workload-a'],
      ownerPid: process.pid,
    });
    const backendKubeconfig = await prepareManagementCluster(
      cp.cluster('management'),
    );
    const client = new KubeClient(kubeConfigFromText(backendKubeconfig), {
      counter: new RequestCounter(),
    });
    ({ server } = await startTestBackend({
      features: [
        infraredPlugin,
        scheduler.factory(),
        infraredKubeServiceFactory({
          management: {
            api: managementApi(client),
            prober: new KubeClusterProber(client),
            probeCounter: new RequestCounter(),
            server: client.server,
          },
        }),
        mockServices.rootConfig.factory({
          data: {
            infrared: {
              gitops: { type: 'local', path: path.join(tmp, 'gitops.git') },
            },
          },
        }),
      ],
    }));
    await scheduler.triggerTask(TASK);
    const started = Date.now();
    argo = await startArgoCd(cp, {
      gitRepo: demoRepo(tmp, 'argocd-demo'),
      ownerPid: process.pid,
      resyncSeconds: 10,
    });
    figures.argocdReadySeconds = (Date.now() - started) / 1000;
  }, BUILD_MS);

  afterAll(async () => {
    scheduler.stop();
    await argo?.stop();
    await cp?.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
    // eslint-disable-next-line no-console
    console.log(`argocd figures: ${JSON.stringify(figures)}`);
  });

  it('lists a registered Cluster, Successful once an Application targets it, and syncs the Application', async () => {
    const workload = cp.cluster('workload-a');
    const name = uniqueName('argo-wa');
    // Argo CD deploys with the registered credential: a ServiceAccount bound to cluster-admin.
    const kubeconfig = await tokenKubeconfig(
      workload,
      uniqueName('argocd'),
      'cluster-admin',
    );
    const registeredAt = Date.now();
    expect(
      (await send('post', '/v1/clusters', { name, kubeconfig })).status,
    ).toBe(201);
    await eventually(
      async () => {
        await scheduler.triggerTask(TASK);
        const v: ClusterView = (await send('get', `/v1/clusters/${name}`)).body;
        return findCondition(v, 'Registered')?.status === 'True';
      },
      60_000,
      200,
    );

    // the build devenv made from Go modules, and authentication on: no token, no clusters
    expect((await argoGet('/api/version', argo.token)).body.Version).toBe(
      'v3.6.1',
    );
    expect((await argoGet('/api/v1/clusters')).status).toBe(401);
    const listed = await eventually(
      async () => {
        const res = await argoGet('/api/v1/clusters', argo.token);
        expect(res.status).toBe(200);
        return (res.body.items ?? []).find((c: any) => c.name === name);
      },
      30_000,
      500,
    );
    expect(listed.server).toBe(workload.server);
    figures.secretListedSeconds = (Date.now() - registeredAt) / 1000;

    const admin = AdminClient.fromKubeconfig(
      cp.cluster('management').kubeconfig,
    );
    await admin.must(
      'POST',
      '/apis/argoproj.io/v1alpha1/namespaces/argocd/applications',
      {
        apiVersion: 'argoproj.io/v1alpha1',
        kind: 'Application',
        metadata: { name: 'argocd-demo', namespace: 'argocd' },
        spec: {
          project: 'default',
          source: {
            repoURL: argo.gitUrl,
            targetRevision: 'main',
            path: 'demo',
          },
          destination: { server: workload.server, namespace: 'default' },
          syncPolicy: { automated: { prune: true } },
        },
      },
    );
    const appAt = Date.now();
    let last: any;
    const app = await eventually(
      async () => {
        const res = await admin.must(
          'GET',
          '/apis/argoproj.io/v1alpha1/namespaces/argocd/applications/argocd-demo',
        );
        last = res.body.status;
        return (
          last?.sync?.status === 'Synced' &&
          last?.health?.status === 'Healthy' &&
          last
        );
      },
      180_000,
      1000,
    ).catch(e => {
      // Argo CD's own words on why it did not sync (conditions, the last operation)
      throw new Error(
        `${e.message}: ${JSON.stringify({
          sync: last?.sync?.status,
          health: last?.health,
          conditions: last?.conditions,
          operation: last?.operationState?.message,
        })}`,
      );
    });
    figures.appHealthySeconds = (Date.now() - appAt) / 1000;
    expect(app.sync.revision).toMatch(/^[0-9a-f]{40}$/);
    const cm = await AdminClient.fromKubeconfig(workload.kubeconfig).must(
      'GET',
      '/api/v1/namespaces/default/configmaps/argocd-demo',
    );
    expect(cm.body.data).toEqual({ hello: 'argocd' });

    const connected = await eventually(
      async () => {
        const res = await argoGet('/api/v1/clusters', argo.token);
        const c = (res.body.items ?? []).find((x: any) => x.name === name);
        const state = c?.info?.connectionState ?? c?.connectionState;
        return state?.status === 'Successful' && c;
      },
      120_000,
      1000,
    );
    figures.clusterSuccessfulSeconds = (Date.now() - registeredAt) / 1000;
    expect(connected.info?.serverVersion ?? connected.serverVersion).toMatch(
      /^v?1\.37\.\d+$/,
    );
  });
});

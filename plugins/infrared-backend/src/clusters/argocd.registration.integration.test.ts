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
import { LocalGitPublisher } from '../gitops';
import { infraredKubeServiceFactory } from '../kube';
import { tokenKubeconfig } from '../kube/__testUtils__/workload';
import { infraredPlugin } from '../plugin';
import { prepareManagementCluster } from './__testUtils__/managementCluster';
import { SerialScheduler } from './__testUtils__/serialScheduler';

// The first run on a machine builds Argo CD from Go modules (about 14 min cold, once: cached).
const BUILD_MS = 40 * 60_000;
jest.setTimeout(6 * 60_000);

const TASK = 'infrared-clusters-reconcile';
const MGMT = 'infrared-mgmt'; // the default infrared.managementCluster.name
const RESYNC_SECONDS = 10;

/**
 * Registration checked by the real Argo CD (built from Go modules, run by devenv's startArgoCd) on
 * a control plane of this test's own: Argo CD clones the local gitops repository the backend writes
 * through devenv's loopback `git daemon` (`infrared.gitops.argocdRepoUrl`), the root Application
 * `registry-<mgmt>` is made as the gitops template's bootstrap makes it, and no Application is made
 * by the test for the registered cluster: what Argo CD monitors is what registration wrote.
 */
describe('a real Argo CD syncs what a registration writes', () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'infrared-argocd-reg-'));
  const gitopsRepo = path.join(tmp, 'gitops.git');
  const scheduler = new SerialScheduler();
  let cp: ControlPlane;
  let argo: ArgoCd;
  let gitopsUrl: string;
  let server: any;
  const figures: Record<string, number> = {};

  const argoGet = async (url: string) => {
    const res = await fetch(`${argo.url}${url}`, {
      headers: { Authorization: `Bearer ${argo.token}` },
      signal: AbortSignal.timeout(10_000),
    });
    return { status: res.status, body: (await res.json()) as any };
  };
  const argoCluster = async (name: string) => {
    const res = await argoGet('/api/v1/clusters');
    expect(res.status).toBe(200);
    return (res.body.items ?? []).find((c: any) => c.name === name);
  };
  /** Every Application in namespace argocd with Argo CD's own status: what a failure shows. */
  const applicationsSummary = async () => {
    const res = await AdminClient.fromKubeconfig(
      cp.cluster('management').kubeconfig,
    ).request(
      'GET',
      '/apis/argoproj.io/v1alpha1/namespaces/argocd/applications',
    );
    return JSON.stringify(
      (res.body?.items ?? []).map((a: any) => ({
        name: a.metadata.name,
        sync: a.status?.sync,
        health: a.status?.health?.status,
        conditions: a.status?.conditions,
        operation: a.status?.operationState?.message,
      })),
    );
  };
  /** The Application as Argo CD's API shows it; fails with Argo CD's own status when the bound passes. */
  const argoApplicationUntil = async (
    name: string,
    ok: (app: any) => boolean,
    timeoutMs: number,
  ) => {
    let last: any;
    return eventually(
      async () => {
        const res = await argoGet(`/api/v1/applications/${name}`);
        last = res.body;
        return res.status === 200 && ok(res.body) && res.body;
      },
      timeoutMs,
      1000,
    ).catch(async e => {
      throw new Error(
        `${e.message}: Application ${name}: ${JSON.stringify({
          error: last?.error ?? last?.message,
        })}; Argo CD's Applications: ${await applicationsSummary()}`,
      );
    });
  };
  const send = (
    method: 'get' | 'post' | 'delete',
    url: string,
    body?: object,
  ) => {
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
    // The repository exists before Argo CD's root Application reads it (an empty initial commit).
    await new LocalGitPublisher({ path: gitopsRepo }).listPullRequests();
    argo = await startArgoCd(cp, {
      gitRepo: gitopsRepo,
      ownerPid: process.pid,
      resyncSeconds: RESYNC_SECONDS,
    });
    gitopsUrl = argo.gitUrl!;
    if (!/^git:\/\/127\.0\.0\.1:\d+\/gitops\.git$/.test(gitopsUrl)) {
      throw new Error(`not a loopback git URL: ${gitopsUrl}`);
    }

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
              gitops: {
                type: 'local',
                path: gitopsRepo,
                argocdRepoUrl: gitopsUrl,
              },
            },
          },
        }),
      ],
    }));
    await scheduler.triggerTask(TASK);

    // The bootstrap of the gitops template: the root Application over the management cluster's components.
    await AdminClient.fromKubeconfig(cp.cluster('management').kubeconfig).must(
      'POST',
      '/apis/argoproj.io/v1alpha1/namespaces/argocd/applications',
      {
        apiVersion: 'argoproj.io/v1alpha1',
        kind: 'Application',
        metadata: { name: `registry-${MGMT}`, namespace: 'argocd' },
        spec: {
          project: 'default',
          source: {
            repoURL: gitopsUrl,
            targetRevision: 'main',
            path: `registry/clusters/${MGMT}/components`,
            directory: { recurse: false },
          },
          destination: {
            server: 'https://kubernetes.default.svc',
            namespace: 'argocd',
          },
          syncPolicy: { automated: { prune: true, selfHeal: true } },
        },
      },
    );
  }, BUILD_MS);

  afterAll(async () => {
    scheduler.stop();
    await argo?.stop();
    await cp?.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
    // eslint-disable-next-line no-console
    console.log(`argocd registration figures: ${JSON.stringify(figures)}`);
  });

  it('registered through the API: its app-of-apps syncs from the git URL, the cluster turns Successful with no test-made Application, and a removal deletes nothing on it', async () => {
    const workload = cp.cluster('workload-a');
    const name = uniqueName('argo-reg');
    const kubeconfig = await tokenKubeconfig(
      workload,
      uniqueName('argocd'),
      'cluster-admin',
    );
    const postedAt = Date.now();
    expect(
      (await send('post', '/v1/clusters', { name, kubeconfig })).status,
    ).toBe(201);
    const view: ClusterView = await eventually(
      async () => {
        await scheduler.triggerTask(TASK);
        const v: ClusterView = (await send('get', `/v1/clusters/${name}`)).body;
        return findCondition(v, 'Registered')?.status === 'True' && v;
      },
      60_000,
      200,
    );
    const registeredAt = Date.now();
    expect(view.gitopsPath).toBe(
      `registry/clusters/${MGMT}/components/cluster-${name}.yaml`,
    );
    // The app-of-apps in the repository names the URL Argo CD clones, not a path of this machine.
    const file = execFileSync(
      'git',
      ['--git-dir', gitopsRepo, 'show', `main:${view.gitopsPath}`],
      { encoding: 'utf8' },
    );
    expect(file).toContain(`repoURL: ${gitopsUrl}`);
    expect(file).not.toContain('file://');

    // Argo CD made the app-of-apps from the file and synced it: the cluster's components, among them
    // the Application infrared-<name> that registration wrote.
    const appOfApps = await argoApplicationUntil(
      `registry-${name}`,
      app => app.status?.sync?.status === 'Synced',
      180_000,
    );
    figures.appOfAppsSyncedAfterMergeSeconds =
      (Date.now() - registeredAt) / 1000;
    expect(appOfApps.spec.source.repoURL).toBe(gitopsUrl);
    expect(appOfApps.status.sync.revision).toMatch(/^[0-9a-f]{40}$/);
    expect(
      (appOfApps.status.resources ?? []).map((r: any) => `${r.kind}/${r.name}`),
    ).toContain(`Application/infrared-${name}`);

    const component = await argoApplicationUntil(
      `infrared-${name}`,
      app =>
        app.status?.sync?.status === 'Synced' &&
        app.status?.health?.status === 'Healthy',
      180_000,
    );
    expect(component.status.resources).toEqual([
      expect.objectContaining({
        kind: 'ConfigMap',
        namespace: 'infrared-system',
        name: 'infrared-cluster',
        status: 'Synced',
      }),
    ]);

    // Argo CD monitors the cluster: Successful, with no Application of the test's own.
    const connected = await eventually(
      async () => {
        const c = await argoCluster(name);
        return c?.info?.connectionState?.status === 'Successful' && c;
      },
      120_000,
      1000,
    );
    figures.postToSuccessfulSeconds = (Date.now() - postedAt) / 1000;
    expect(connected.server).toBe(workload.server);
    expect(connected.info.serverVersion).toMatch(/^v?1\.\d+/);
    const workloadAdmin = AdminClient.fromKubeconfig(workload.kubeconfig);
    const cmPath =
      '/api/v1/namespaces/infrared-system/configmaps/infrared-cluster';
    expect((await workloadAdmin.must('GET', cmPath)).body.data).toEqual({
      cluster: name,
      managementCluster: MGMT,
    });

    // Removal: the Cluster goes, its Argo CD Secret goes (garbage collector), Argo CD forgets it ...
    expect((await send('delete', `/v1/clusters/${name}`)).status).toBe(204);
    const deletedAt = Date.now();
    await eventually(
      async () => (await argoCluster(name)) === undefined,
      90_000,
      1000,
    );
    figures.deleteToGoneFromArgoSeconds = (Date.now() - deletedAt) / 1000;
    // ... and nothing on the workload cluster is deleted, two resync periods of Argo CD later.
    await new Promise(r => setTimeout(r, 2 * RESYNC_SECONDS * 1000 + 2000));
    expect(await argoCluster(name)).toBeUndefined();
    const cm = (await workloadAdmin.must('GET', cmPath)).body;
    expect(cm.metadata.deletionTimestamp).toBeUndefined();
    expect(cm.data.cluster).toBe(name);
    const ns = (
      await workloadAdmin.must('GET', '/api/v1/namespaces/infrared-system')
    ).body;
    expect(ns.metadata.deletionTimestamp).toBeUndefined();
    expect(ns.status.phase).toBe('Active');
  });
});

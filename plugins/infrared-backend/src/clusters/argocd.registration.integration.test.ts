import { eventually, uniqueName } from '@internal/devenv';
import {
  ClusterView,
  findCondition,
} from '@infrared-clusters/plugin-infrared-common';
import { execFileSync } from 'node:child_process';
import {
  ARGOCD_BUILD_MS,
  MGMT,
  startArgoCdBackend,
  type ArgoCdBackend,
} from '../__testUtils__/argoCdBackend';
import { tokenKubeconfig } from '../kube/__testUtils__/workload';

jest.setTimeout(6 * 60_000);

const TASK = 'infrared-clusters-reconcile';
const RESYNC_SECONDS = 10;

/**
 * Registration checked by the real Argo CD (built from Go modules, run by devenv's startArgoCd) on
 * a control plane of this test's own: Argo CD clones the local gitops repository the backend writes
 * through devenv's loopback `git daemon` (`infrared.gitops.argocdRepoUrl`), the root Application
 * `registry-<mgmt>` is made as the gitops template's bootstrap makes it, and no Application is made
 * by the test for the registered cluster: what Argo CD monitors is what registration wrote.
 */
describe('a real Argo CD syncs what a registration writes', () => {
  let w: ArgoCdBackend;
  const figures: Record<string, number> = {};

  beforeAll(async () => {
    w = await startArgoCdBackend({ resyncSeconds: RESYNC_SECONDS });
    if (w.builtSeconds) figures.argocdBuildSeconds = w.builtSeconds;
    await w.scheduler.triggerTask(TASK);
    await w.createRootApplication();
  }, ARGOCD_BUILD_MS);

  afterAll(async () => {
    await w?.stop();
    // eslint-disable-next-line no-console
    console.log(`argocd registration figures: ${JSON.stringify(figures)}`);
  });

  it('registered through the API: its app-of-apps syncs from the git URL, the cluster turns Successful with no test-made Application, and a removal deletes nothing on it', async () => {
    const { send, scheduler, argoCluster, argoApplicationUntil } = w;
    const gitopsUrl = w.gitopsUrl;
    const workload = w.cp.cluster('workload-a');
    const name = uniqueName('argo-reg');
    const kubeconfig = await tokenKubeconfig(
      workload,
      uniqueName('argocd'),
      'cluster-admin',
    );
    // The build devenv made from Go modules, authentication on: no token, no clusters.
    expect((await w.argoGet('/api/version')).body.Version).toBe('v3.6.1');
    const anonymous = await fetch(`${w.argo.url}/api/v1/clusters`, {
      signal: AbortSignal.timeout(10_000),
    });
    expect(anonymous.status).toBe(401);
    await anonymous.arrayBuffer();

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
      ['--git-dir', w.gitopsRepo, 'show', `main:${view.gitopsPath}`],
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
    const workloadAdmin = w.admin('workload-a');
    const cmPath =
      '/api/v1/namespaces/infrared-system/configmaps/infrared-cluster';
    expect((await workloadAdmin.must('GET', cmPath)).body.data).toEqual({
      cluster: name,
      managementCluster: MGMT,
    });

    // Removal: the Cluster goes, its Argo CD Secret goes (garbage collector), Argo CD forgets it ...
    expect((await send('delete', `/v1/clusters/${name}`)).status).toBe(200);
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

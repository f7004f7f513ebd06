import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import YAML from 'yaml';
import { KubeClient } from '@infrared-clusters/infrared-kube';
import { ensureArgoCd } from './argocdBinary';
import { bootstrapArgoCd } from './argocdBootstrap';
import { upDemoArgoCd } from './argocdDemo';
import { ControlPlane, startControlPlane } from './controlPlane';
import { ensureDemoChild } from './demo';
import { setUpPlacementDemo } from './demoPlacement';
import { eventually, installCrds } from './helpers';
import { isRunning } from './processes';
import { removeTestDir } from './testing';

// The first run on a machine builds Argo CD from Go modules (about 19 min cold, once: cached).
const BUILD_MS = 40 * 60_000;
jest.setTimeout(6 * 60_000);

const MGMT = 'infrared-mgmt';
const REPO = path.resolve(__dirname, '../../..');

/** Commits `files` (path -> text) on main of the bare repository `bare`, through a clone in `work`. */
function commit(bare: string, work: string, files: Record<string, string>) {
  const git = (...args: string[]) =>
    execFileSync(
      'git',
      ['-c', 'user.name=test', '-c', 'user.email=test@example.com', ...args],
      { cwd: work, encoding: 'utf8' },
    );
  if (!fs.existsSync(path.join(work, '.git'))) {
    execFileSync('git', ['clone', '-q', bare, work]);
    git('checkout', '-q', '-B', 'main');
  }
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(work, file)), { recursive: true });
    fs.writeFileSync(path.join(work, file), text);
  }
  git('add', '-A');
  git('commit', '-q', '-m', `add ${Object.keys(files).join(', ')}`);
  git('push', '-q', 'origin', 'main');
}

const application = (
  name: string,
  repoURL: string,
  srcPath: string,
  destination: object,
  project = 'default',
) =>
  YAML.stringify({
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'Application',
    metadata: { name, namespace: 'argocd' },
    spec: {
      project,
      source: { repoURL, targetRevision: 'main', path: srcPath },
      destination,
      syncPolicy: {
        automated: { prune: true, selfHeal: true },
        syncOptions: ['CreateNamespace=true'],
      },
    },
  });

const configMap = (name: string, namespace: string, data: object) =>
  YAML.stringify({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, namespace },
    data,
  });

/**
 * The Argo CD bootstrap (deploy/argocd through bootstrapArgoCd) and the demo's Argo CD of `devenv up`
 * (upDemoArgoCd), on a control plane of this test's own with a real Argo CD: what Argo CD's API then
 * shows, what the panel's account may read, the state's reuse, and a registrar child turning
 * Successful once the component registration writes for a cluster targets it.
 */
describe('the Argo CD bootstrap on a real Argo CD', () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'infrared-bootstrap-'));
  const bare = path.join(tmp, 'repo', 'gitops.git');
  const work = path.join(tmp, 'work');
  let cp: ControlPlane;
  let admin: KubeClient;
  let argo: { url: string; gitUrl: string };
  let tokens: Record<string, string>;
  const figures: Record<string, number> = {};

  const argoGet = async (url: string, token = tokens.infrared) => {
    const res = await fetch(`${argo.url}${url}`, {
      headers: { Authorization: `Bearer ${token}` },
      signal: AbortSignal.timeout(10_000),
    });
    return { status: res.status, body: (await res.json()) as any };
  };
  /** Argo CD's own view of an Application, once `ok`; a failure shows its status. */
  const applicationUntil = async (name: string, ok: (a: any) => boolean) => {
    let last: any;
    const refresh = () =>
      admin.request(
        'PATCH',
        `/apis/argoproj.io/v1alpha1/namespaces/argocd/applications/${name}`,
        {
          metadata: { annotations: { 'argocd.argoproj.io/refresh': 'normal' } },
        },
        'application/merge-patch+json',
      );
    return eventually(
      async () => {
        const res = await argoGet(`/api/v1/applications/${name}`);
        last = res.body;
        if (res.status === 200 && !ok(res.body)) await refresh();
        return res.status === 200 && ok(res.body) && res.body;
      },
      180_000,
      1000,
    ).catch(e => {
      throw new Error(
        `${e.message}: ${name}: ${JSON.stringify({
          sync: last?.status?.sync,
          health: last?.status?.health,
          conditions: last?.status?.conditions,
          error: last?.message,
        })}`,
      );
    });
  };
  const argoCluster = async (name: string) =>
    ((await argoGet('/api/v1/clusters')).body.items ?? []).find(
      (c: any) => c.name === name,
    );

  beforeAll(async () => {
    const built = ensureArgoCd();
    if (built.builtSeconds) figures.argocdBuildSeconds = built.builtSeconds;
    cp = await startControlPlane({
      clusters: ['management', 'workload-a'],
      ownerPid: process.pid,
    });
    admin = cp.client('management');
    fs.mkdirSync(path.dirname(bare), { recursive: true });
    execFileSync('git', ['init', '-q', '--bare', '-b', 'main', bare]);
    // The repository root of the demo: its app-config names the gitops repository and the management cluster.
    fs.writeFileSync(
      path.join(tmp, 'app-config.yaml'),
      YAML.stringify({
        infrared: {
          managementCluster: { name: MGMT },
          gitops: { type: 'local', path: bare },
        },
      }),
    );
  }, BUILD_MS);

  afterAll(async () => {
    await cp?.stop(); // the state records Argo CD's processes too
    removeTestDir(tmp);
    // eslint-disable-next-line no-console
    console.log(`argocd bootstrap figures: ${JSON.stringify(figures)}`);
  });

  it('devenv up starts Argo CD, bootstraps it, and reuses it while it runs', async () => {
    const opts = {
      dataDir: tmp,
      repoRoot: tmp,
      basePort: 0,
      ownerPid: process.pid,
    };
    let started = Date.now();
    const first = await upDemoArgoCd(cp, opts);
    figures.firstUpSeconds = (Date.now() - started) / 1000;
    argo = first;
    expect(first.reused).toBe(false);
    expect(first.gitUrl).toMatch(/^git:\/\/127\.0\.0\.1:\d+\/gitops\.git$/);
    expect(first.bootstrapped).toEqual([
      'AppProject argocd/platform',
      'AppProject argocd/infrared',
      'AppProject argocd/products',
      `Application argocd/registry-${MGMT}`,
    ]);
    const tokensFile = path.join(tmp, 'argocd-tokens.json');
    expect(fs.statSync(tokensFile).mode & 0o777).toBe(0o600);
    tokens = JSON.parse(fs.readFileSync(tokensFile, 'utf8'));
    expect(Object.keys(tokens).sort()).toEqual(['backstage', 'infrared']);
    const state = JSON.parse(fs.readFileSync(cp.statePath, 'utf8'));
    expect(state.argocd).toEqual({
      url: first.url,
      gitUrl: first.gitUrl,
      namespace: 'argocd',
      account: 'infrared',
      panelAccount: 'backstage',
    });
    const names = state.processes.map((p: any) => p.name);
    for (const n of [
      'argocd-redis',
      'argocd-repo-server',
      'argocd-application-controller',
      'argocd-server',
      'argocd-git-daemon',
    ])
      expect(names).toContain(n);

    // A second `devenv up`: the same Argo CD, the same tokens, at once.
    started = Date.now();
    const second = await upDemoArgoCd(cp, opts);
    figures.reuseSeconds = (Date.now() - started) / 1000;
    expect(second).toEqual({ ...first, reused: true });
    expect(JSON.parse(fs.readFileSync(tokensFile, 'utf8'))).toEqual(tokens);
    expect(figures.reuseSeconds).toBeLessThan(5);

    // One process gone: the next `devenv up` starts Argo CD again, and keeps the tokens it accepts.
    const server = cp.state.processes.find(p => p.name === 'argocd-server')!;
    process.kill(server.pid, 'SIGKILL');
    await eventually(async () => !isRunning(server), 10_000, 100);
    const third = await upDemoArgoCd(cp, opts);
    expect(third.reused).toBe(false);
    expect(JSON.parse(fs.readFileSync(tokensFile, 'utf8'))).toEqual(tokens);
    argo = third;
  });

  it("Argo CD's API lists the three AppProjects, the root Application syncs the management cluster's components from the git daemon, and the panel's account reads only clusters", async () => {
    const projects = await argoGet('/api/v1/projects');
    expect(projects.status).toBe(200);
    const byName = Object.fromEntries(
      projects.body.items.map((p: any) => [p.metadata.name, p.spec]),
    );
    expect(Object.keys(byName).sort()).toEqual([
      'default',
      'infrared',
      'platform',
      'products',
    ]);
    expect(byName.platform.destinations).toEqual([
      { server: 'https://kubernetes.default.svc', namespace: '*' },
    ]);
    expect(byName.infrared.destinations).toEqual([
      { server: 'https://kubernetes.default.svc', namespace: 'infrared' },
    ]);
    expect(byName.infrared.clusterResourceWhitelist).toHaveLength(3);
    expect(byName.products.destinations ?? []).toEqual([]);
    for (const p of ['platform', 'infrared', 'products'])
      expect(byName[p].sourceRepos).toEqual([argo.gitUrl]);

    // The management cluster's components: one Application of project platform, and one of project
    // infrared that asks for a namespace the project does not allow.
    const components = `registry/clusters/${MGMT}/components`;
    const pushedAt = Date.now();
    commit(bare, work, {
      [`${components}/hello.yaml`]: application(
        'hello',
        argo.gitUrl,
        `registry/clusters/${MGMT}/hello`,
        { server: 'https://kubernetes.default.svc', namespace: 'hello' },
        'platform',
      ),
      [`registry/clusters/${MGMT}/hello/hello.yaml`]: configMap(
        'hello',
        'hello',
        { from: 'bootstrap test' },
      ),
      [`${components}/sneaky.yaml`]: application(
        'sneaky',
        argo.gitUrl,
        `registry/clusters/${MGMT}/hello`,
        { server: 'https://kubernetes.default.svc', namespace: 'hello' },
        'infrared',
      ),
    });
    const root = await applicationUntil(
      `registry-${MGMT}`,
      a => a.status?.sync?.status === 'Synced',
    );
    expect(root.spec.source.repoURL).toBe(argo.gitUrl);
    expect(root.spec.project).toBe('default');
    expect(
      root.status.resources.map((r: any) => `${r.kind}/${r.name}`).sort(),
    ).toEqual(['Application/hello', 'Application/sneaky']);
    await applicationUntil(
      'hello',
      a =>
        a.status?.sync?.status === 'Synced' &&
        a.status?.health?.status === 'Healthy',
    );
    figures.pushToHealthySeconds = (Date.now() - pushedAt) / 1000;
    const sneaky = await applicationUntil('sneaky', a =>
      (a.status?.conditions ?? []).some(
        (c: any) => c.type === 'InvalidSpecError',
      ),
    );
    expect(JSON.stringify(sneaky.status.conditions)).toMatch(
      /namespace '?hello'?.*project '?infrared'?/,
    );

    // The panel's account: the clusters API, nothing else.
    expect((await argoGet('/api/v1/clusters', tokens.backstage)).status).toBe(
      200,
    );
    expect(
      (await argoGet(`/api/v1/applications/registry-${MGMT}`, tokens.backstage))
        .status,
    ).toBe(403);
    expect(
      (await argoGet('/api/v1/projects/platform', tokens.backstage)).status,
    ).toBe(403);
  });

  it("the placement demo appends its zones' destinations to the bootstrap's products, which a second bootstrap keeps", async () => {
    await installCrds(
      cp.cluster('management'),
      path.join(REPO, 'deploy', 'crds'),
    );
    const demo = await setUpPlacementDemo(cp.cluster('management'), {
      repoRoot: REPO,
      argoCdRuns: true,
      repoUrl: argo.gitUrl,
    });
    expect(demo.created).not.toContain('AppProject products');
    await bootstrapArgoCd(cp, {
      repoUrl: argo.gitUrl,
      managementCluster: MGMT,
    });
    const products = (await argoGet('/api/v1/projects/products')).body.spec;
    expect(products.sourceRepos).toEqual([argo.gitUrl]);
    expect(products.destinations).toEqual([
      { server: 'https://kubernetes.default.svc', namespace: 'checkout-rc' },
      { name: 'edge-demo', namespace: 'checkout-prod' },
    ]);
    // Argo CD's own CRDs stayed: the reduced test kinds were not installed over them
    const crd = await admin.must(
      'GET',
      '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/applications.argoproj.io',
    );
    expect(
      crd.body.metadata.managedFields.map((f: any) => f.manager),
    ).not.toContain('devenv'); // installCrds' merge patch of deploy/test-fixtures
  });

  it('a child the registrar registers shows Unknown until the component registration writes targets it, then Successful', async () => {
    const child = await ensureDemoChild(
      cp.cluster('management'),
      cp.cluster('workload-a'),
      { name: 'kid' },
    );
    const kubeconfigPath = path.join(tmp, 'management.kubeconfig');
    fs.writeFileSync(kubeconfigPath, cp.cluster('management').kubeconfig, {
      mode: 0o600,
    });
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      KUBECONFIG: kubeconfigPath,
    };
    delete env.NODE_OPTIONS;
    delete env.KUBERNETES_SERVICE_HOST;
    const run = spawnSync(
      'npx',
      [
        '--no-install',
        'infrared-registrar',
        '--once',
        '--target-namespace=argocd',
      ],
      { cwd: REPO, env, encoding: 'utf8', timeout: 120_000 },
    );
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('msg="registered cluster"');
    const registeredAt = Date.now();

    // Listed, but not monitored: no Application targets it.
    const listed = await eventually(() => argoCluster('kid'), 60_000, 500);
    expect(listed.server).toBe(child.server);
    expect(listed.info?.connectionState?.status).not.toBe('Successful');
    expect(listed.labels['argocd-cluster-registrar/managed-by']).toBe(
      'cluster-registrar',
    );

    // The files registration writes for a cluster, here for the child: the app-of-apps over its
    // components, its Application infrared-kid (destination by name) and the ConfigMap it keeps.
    commit(bare, work, {
      [`registry/clusters/${MGMT}/components/cluster-kid.yaml`]: application(
        'registry-kid',
        argo.gitUrl,
        'registry/clusters/kid/components',
        { server: 'https://kubernetes.default.svc', namespace: 'argocd' },
      ),
      'registry/clusters/kid/components/infrared.yaml': application(
        'infrared-kid',
        argo.gitUrl,
        'registry/clusters/kid/infrared',
        { name: 'kid', namespace: 'infrared-system' },
      ),
      'registry/clusters/kid/infrared/cluster-info.yaml': configMap(
        'infrared-cluster',
        'infrared-system',
        { cluster: 'kid', managementCluster: MGMT },
      ),
    });
    await applicationUntil(`registry-${MGMT}`, a =>
      (a.status?.resources ?? []).some((r: any) => r.name === 'registry-kid'),
    );
    await applicationUntil(
      'infrared-kid',
      a =>
        a.status?.sync?.status === 'Synced' &&
        a.status?.health?.status === 'Healthy',
    );
    const connected = await eventually(
      async () => {
        const c = await argoCluster('kid');
        return c?.info?.connectionState?.status === 'Successful' && c;
      },
      120_000,
      1000,
    );
    figures.registrarChildSuccessfulSeconds =
      (Date.now() - registeredAt) / 1000;
    expect(connected.info.serverVersion).toMatch(/^v?1\.\d+/);
    const cm = await KubeClient.fromKubeconfig(
      cp.cluster('workload-a').kubeconfig,
    ).must(
      'GET',
      '/api/v1/namespaces/infrared-system/configmaps/infrared-cluster',
    );
    expect(cm.body.data.cluster).toBe('kid');
  });
});

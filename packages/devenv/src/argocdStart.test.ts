import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { argocdManifests, rbacPolicy } from './argocdConfig';
import { argocdModuleDir } from './argocdBinary';
import { BOOTSTRAP_DIR, bootstrapManifests } from './argocdBootstrap';
import {
  PORTAL_CONFIG_FILE,
  portalConfig,
  writePortalConfig,
} from './portalConfig';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const startHook = require('../start-hook');

describe("devenv's Argo CD accounts", () => {
  it('gives the panel account only `clusters, get`, and the other one role:readonly', () => {
    expect(rbacPolicy({ account: 'infrared', panelAccount: 'backstage' })).toBe(
      'p, role:clusters-reader, clusters, get, *, allow\n' +
        'g, backstage, role:clusters-reader\n' +
        'g, infrared, role:readonly\n',
    );
  });

  it("puts both accounts (apiKey) and that policy into Argo CD's own argocd-cm and argocd-rbac-cm", () => {
    // Argo CD's module (its manifests/) from Go's module cache, there once Argo CD is built
    const { config } = argocdManifests(argocdModuleDir(), {
      namespace: 'argocd',
      account: 'infrared',
      panelAccount: 'backstage',
    });
    const cm = config.find(o => o.metadata.name === 'argocd-cm');
    expect(cm.data).toMatchObject({
      'accounts.infrared': 'apiKey',
      'accounts.backstage': 'apiKey',
    });
    const rbac = config.find(o => o.metadata.name === 'argocd-rbac-cm');
    expect(rbac.data['policy.csv']).toContain(
      'p, role:clusters-reader, clusters, get, *, allow',
    );
    expect(rbac.data['policy.default']).toBeUndefined();
  });
});

describe('the Argo CD bootstrap files (deploy/argocd)', () => {
  it('are the three AppProjects and the root Application, with the repository, branch and cluster substituted', () => {
    const objects = bootstrapManifests({
      repoUrl: 'https://github.com/acme/gitops.git',
      managementCluster: 'mgmt-1',
    });
    expect(
      objects.map(o => `${o.kind} ${o.metadata.namespace}/${o.metadata.name}`),
    ).toEqual([
      'AppProject argocd/platform',
      'AppProject argocd/infrared',
      'AppProject argocd/products',
      'Application argocd/registry-mgmt-1',
    ]);
    const root = objects[3];
    expect(root.spec).toMatchObject({
      project: 'default',
      source: {
        repoURL: 'https://github.com/acme/gitops.git',
        targetRevision: 'main',
        path: 'registry/clusters/mgmt-1/components',
      },
      destination: {
        server: 'https://kubernetes.default.svc',
        namespace: 'argocd',
      },
      syncPolicy: { automated: { prune: true, selfHeal: true } },
    });
    expect(JSON.stringify(objects)).not.toContain('${');
    // products names no destination: they are appended per zone, and a re-apply keeps them
    expect(objects[2].spec.destinations).toBeUndefined();
    expect(objects[1].spec.destinations).toEqual([
      { server: 'https://kubernetes.default.svc', namespace: 'infrared' },
    ]);
  });

  it('takes any text as a value (substituted after parsing) and refuses an unknown variable', () => {
    const objects = bootstrapManifests({
      repoUrl: '*',
      managementCluster: 'm',
      branch: 'release: 1',
    });
    expect(objects[0].spec.sourceRepos).toEqual(['*']);
    expect(objects[3].spec.source.targetRevision).toBe('release: 1');

    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bootstrap-'));
    fs.copyFileSync(
      path.join(BOOTSTRAP_DIR, 'registry.yaml'),
      path.join(dir, 'registry.yaml'),
    );
    fs.appendFileSync(path.join(dir, 'registry.yaml'), '  info: ${OTHER}\n');
    expect(() =>
      bootstrapManifests({ repoUrl: 'x', managementCluster: 'm', dir }),
    ).toThrow('registry.yaml names an unknown variable ${OTHER}');
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

describe('the start hook (scripts/start.d/10-devenv.js)', () => {
  let repoRoot: string;
  let dir: string;
  const calls: string[][] = [];
  const run = (_exe: string, args: string[]) => {
    calls.push(args.slice(1));
    return 0;
  };
  beforeEach(() => {
    calls.length = 0;
    repoRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'start-hook-'));
    dir = path.join(repoRoot, '.data', 'devenv');
    fs.mkdirSync(dir, { recursive: true });
  });
  afterEach(() => fs.rmSync(repoRoot, { recursive: true, force: true }));

  it('runs devenv up and hands the portal the kubeconfigs and the config file devenv up wrote', async () => {
    fs.writeFileSync(path.join(dir, PORTAL_CONFIG_FILE), 'infrared: {}\n');
    const env = await startHook({ repoRoot, env: {}, run });
    expect(calls).toEqual([['up']]);
    expect(env).toEqual({
      INFRARED_DEVENV_MANAGEMENT_KUBECONFIG: path.join(
        dir,
        'management.kubeconfig',
      ),
      INFRARED_DEVENV_EDGE_DEMO_KUBECONFIG: path.join(
        dir,
        'edge-demo.kubeconfig',
      ),
      configFiles: [path.join(dir, PORTAL_CONFIG_FILE)],
    });
  });

  it('hands no config file that is not there, and nothing at all with INFRARED_DEVENV=off', async () => {
    expect((await startHook({ repoRoot, env: {}, run })).configFiles).toEqual(
      [],
    );
    calls.length = 0;
    expect(
      await startHook({ repoRoot, env: { INFRARED_DEVENV: 'off' }, run }),
    ).toEqual({});
    expect(calls).toEqual([]);
  });
});

describe("the portal's config file (portalConfig.ts)", () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-config-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));
  const running = () => {
    // what `devenv up` leaves when it started Argo CD
    fs.writeFileSync(
      path.join(dir, 'state.json'),
      JSON.stringify({
        processes: [],
        argocd: {
          url: 'http://127.0.0.1:18080',
          gitUrl: 'git://127.0.0.1:18081/gitops.git',
          panelAccount: 'backstage',
        },
      }),
    );
    fs.writeFileSync(
      path.join(dir, 'argocd-tokens.json'),
      JSON.stringify({ infrared: 'readonly-token', backstage: 'panel-token' }),
    );
  };
  const opts = { gitRepoName: 'gitops.git', env: {} };

  it("with Argo CD running: the proxy endpoint's target and the panel account's token, and the git URL", () => {
    running();
    expect(portalConfig(dir, opts)).toEqual({
      infrared: {
        provisioning: { runnerStatusFile: path.join(dir, 'prepare.json') },
        gitops: { argocdRepoUrl: 'git://127.0.0.1:18081/gitops.git' },
      },
      proxy: {
        endpoints: {
          '/argocd/api/v1/clusters': {
            target: 'http://127.0.0.1:18080/api/v1/clusters',
            headers: { Authorization: 'Bearer panel-token' },
          },
        },
      },
    });
  });

  it('while Argo CD is being built: no endpoint, and the git URL its git daemon will serve', () => {
    fs.writeFileSync(
      path.join(dir, 'state.json'),
      JSON.stringify({ processes: [] }),
    );
    const config = portalConfig(dir, {
      ...opts,
      env: { INFRARED_ARGOCD_PORT: '19000' },
    });
    expect(config.proxy).toBeUndefined();
    expect(config.infrared.gitops).toEqual({
      argocdRepoUrl: 'git://127.0.0.1:19001/gitops.git',
    });
  });

  it('with INFRARED_ARGOCD=off: the runner status only', () => {
    running();
    expect(
      portalConfig(dir, { ...opts, env: { INFRARED_ARGOCD: 'off' } }),
    ).toEqual({
      infrared: {
        provisioning: { runnerStatusFile: path.join(dir, 'prepare.json') },
      },
    });
  });

  it('is written 0600, and only when it changes (an unchanged file does not wake the backend)', () => {
    const file = writePortalConfig(dir, opts);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const before = fs.statSync(file).mtimeMs;
    fs.utimesSync(file, 0, 0);
    writePortalConfig(dir, opts);
    expect(fs.statSync(file).mtimeMs).toBe(0);
    running();
    writePortalConfig(dir, opts);
    expect(fs.readFileSync(file, 'utf8')).toContain('Bearer panel-token');
    expect(before).toBeGreaterThan(0);
  });
});
describe("npm test's leak scan (scripts/leak-scan.js)", () => {
  it('looks for the Argo CD tokens devenv keeps beside its state (argocd-tokens.json), never printing them', async () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { leakScan } = require(path.resolve(
      __dirname,
      '../../../scripts/leak-scan.js',
    ));
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'leak-argocd-'));
    const token = `eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJiYWNrc3RhZ2UifQ.${'x1'.repeat(
      22,
    )}`;
    fs.writeFileSync(
      path.join(dir, 'state.json'),
      JSON.stringify({ processes: [], clusters: [] }),
    );
    fs.writeFileSync(
      path.join(dir, 'argocd-tokens.json'),
      JSON.stringify({ backstage: token }),
    );
    const out = path.join(dir, 'out');
    fs.mkdirSync(out);
    fs.writeFileSync(path.join(out, 'portal.log'), `Bearer ${token}\n`);
    const result = await leakScan({
      stateFile: path.join(dir, 'state.json'),
      texts: [out],
      env: {},
    });
    fs.rmSync(dir, { recursive: true, force: true });
    expect(result.hits.map((h: any) => h.kind)).toContain('Argo CD token');
    expect(JSON.stringify(result)).not.toContain(token.split('.')[2]);
  });
});

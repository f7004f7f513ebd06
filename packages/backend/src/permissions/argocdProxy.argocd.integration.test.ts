import {
  mockCredentials,
  mockServices,
  startTestBackend,
  type TestBackend,
} from '@backstage/backend-test-utils';
import proxyPlugin from '@backstage/plugin-proxy-backend';
import {
  ensureArgoCd,
  eventually,
  startArgoCd,
  startControlPlane,
  type ArgoCd,
  type ControlPlane,
  removeTestDir,
} from '@internal/devenv';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { productionProxyConfig } from './__testUtils__/argoCd';

/** The first run on a machine builds Argo CD from Go modules (about 19 min cold, once: cached). */
jest.setTimeout(40 * 60_000);

const IN_CLUSTER = 'https://kubernetes.default.svc';
/**
 * Argo CD's answer as the panel's row gets it through the proxy, recorded here from the real
 * argocd-server (`INFRARED_RECORD_ARGOCD=1` writes it anew); the frontend's tests parse it.
 */
const RECORDED = path.resolve(
  __dirname,
  '../../../../plugins/infrared/src/argocd/__fixtures__/argocd-v3.6.1-clusters.json',
);

/** A bare repository with one commit: a ConfigMap under app/. */
function gitopsRepo(dir: string): string {
  const work = path.join(dir, 'work');
  const bare = path.join(dir, 'gitops.git');
  const git = (cwd: string, ...args: string[]) =>
    execFileSync('git', args, { cwd, stdio: 'pipe' });
  fs.mkdirSync(path.join(work, 'app'), { recursive: true });
  fs.writeFileSync(
    path.join(work, 'app', 'check.yaml'),
    'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: proxy-check\ndata:\n  from: argocdProxy.argocd.integration.test.ts\n',
  );
  git(work, 'init', '-q', '-b', 'main');
  git(work, 'add', '.');
  git(
    work,
    '-c',
    'user.name=test',
    '-c',
    'user.email=test@infrared.invalid',
    'commit',
    '-q',
    '-m',
    'app',
  );
  git(dir, 'clone', '-q', '--bare', work, bare);
  return bare;
}

/**
 * The Argo CD endpoint of app-config.production.yaml on the real proxy backend, in front of the
 * real Argo CD v3.6.1 (devenv's startArgoCd, authentication on, the account's API token in the
 * endpoint): the panel's request gets Argo CD's own cluster list with the cluster Successful; with
 * argocd-server stopped it gets the proxy's 504 and text, which the panel reads as Unknown (the
 * frontend's ArgoCdConnection test replays exactly that answer).
 */
describe("the panel's Argo CD request through the real proxy to a real Argo CD", () => {
  let cp: ControlPlane;
  let argo: ArgoCd;
  let backend: TestBackend;
  let tmp: string;
  let base: string;

  beforeAll(async () => {
    ensureArgoCd();
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'infrared-argocd-proxy-'));
    cp = await startControlPlane({
      clusters: ['management'],
      ownerPid: process.pid,
    });
    argo = await startArgoCd(cp, {
      gitRepo: gitopsRepo(tmp),
      ownerPid: process.pid,
      resyncSeconds: 10,
    });
    // An Application on the in-cluster destination: Argo CD then monitors that cluster.
    await cp
      .client('management')
      .must(
        'POST',
        '/apis/argoproj.io/v1alpha1/namespaces/argocd/applications',
        {
          apiVersion: 'argoproj.io/v1alpha1',
          kind: 'Application',
          metadata: { name: 'proxy-check', namespace: 'argocd' },
          spec: {
            project: 'default',
            source: {
              repoURL: argo.gitUrl,
              targetRevision: 'main',
              path: 'app',
            },
            destination: { server: IN_CLUSTER, namespace: 'default' },
            syncPolicy: { automated: {} },
          },
        },
      );
    // The account the portal uses (devenv may mint one that may only get clusters).
    const token: string = (argo as any).panelToken ?? argo.token;
    backend = await startTestBackend({
      features: [
        proxyPlugin,
        mockServices.rootConfig.factory({
          data: {
            proxy: (await productionProxyConfig({
              ARGOCD_URL: argo.url,
              ARGOCD_TOKEN: token,
            })) as any,
          },
        }),
        mockServices.httpAuth.factory({
          defaultCredentials: mockCredentials.none(),
        }),
      ],
    });
    base = `http://127.0.0.1:${backend.server.port()}/api/proxy/argocd/api`;
  }, 40 * 60_000);

  afterAll(async () => {
    await backend?.stop();
    await argo?.stop();
    await cp?.stop();
    if (tmp) removeTestDir(tmp);
  });

  const panelRequest = () =>
    fetch(`${base}/v1/clusters`, {
      headers: {
        accept: 'application/json',
        authorization: mockCredentials.user.header(),
      },
    });

  it("gets Argo CD's own cluster list, the cluster Successful, and no token in it", async () => {
    const answer = await eventually(
      async () => {
        const res = await panelRequest();
        const body: any = await res.json();
        const cluster = body.items?.find((c: any) => c.server === IN_CLUSTER);
        return (
          res.status === 200 &&
          cluster?.info?.connectionState?.status === 'Successful' && {
            res,
            body,
            cluster,
          }
        );
      },
      180_000,
      1000,
    );
    expect(answer.res.headers.get('content-type')).toMatch(/application\/json/);
    // What the panel reads of it (argoCdConnectionOf): name, server and info.connectionState.
    expect(answer.cluster).toMatchObject({
      name: 'in-cluster',
      server: IN_CLUSTER,
      info: {
        connectionState: {
          status: 'Successful',
          attemptedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        },
        serverVersion: expect.stringMatching(/^v?1\.\d+/),
      },
    });
    const text = JSON.stringify(answer.body);
    expect(text).not.toContain(argo.token);
    expect(text).not.toMatch(/bearerToken|password|keyData/i);
    if (process.env.INFRARED_RECORD_ARGOCD) {
      fs.writeFileSync(RECORDED, `${JSON.stringify(answer.body, null, 2)}\n`);
    }
    // The recorded answer the frontend's tests parse has the same shape as this one.
    const recorded = JSON.parse(fs.readFileSync(RECORDED, 'utf8'));
    const shape = (v: any): any => {
      if (Array.isArray(v)) return v.slice(0, 1).map(shape);
      if (v && typeof v === 'object') {
        return Object.fromEntries(
          Object.keys(v)
            .sort()
            .map(k => [k, shape(v[k])]),
        );
      }
      return typeof v;
    };
    expect(shape(recorded)).toEqual(shape(answer.body));
  });

  it("answers the proxy's 504 and text when argocd-server is stopped", async () => {
    const server = argo.processes.find(p => p.name === 'argocd-server')!;
    process.kill(server.pid, 'SIGTERM');
    await eventually(
      async () => {
        try {
          await fetch(`${argo.url}/healthz`, {
            signal: AbortSignal.timeout(1000),
          });
          return false;
        } catch {
          return true;
        }
      },
      30_000,
      200,
    );
    const res = await panelRequest();
    expect(res.status).toBe(504);
    expect(res.headers.get('content-type')).toBeNull();
    // (the endpoint's pathRewrite leaves the proxied path empty, so the text names the host only)
    expect(await res.text()).toBe(
      `Error occurred while trying to proxy: ${new URL(base).host}`,
    );
  });
});

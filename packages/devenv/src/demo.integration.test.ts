import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ControlPlane, startControlPlane } from './controlPlane';
import { ensureDemoChild, registrarLabelsFromConfig, setUpDemo } from './demo';
import { KubeClient, parseKubeconfig } from '@infrared-clusters/infrared-kube';
import { getTestControlPlane, uniqueName } from './testing';

jest.setTimeout(180_000);

const unb64 = (s: string) => Buffer.from(s, 'base64').toString('utf8');

async function childSecret(admin: KubeClient, ns: string, name: string) {
  const res = await admin.must(
    'GET',
    `/api/v1/namespaces/${ns}/secrets/k3k-${name}-kubeconfig`,
  );
  return {
    resourceVersion: res.body.metadata.resourceVersion as string,
    keys: Object.keys(res.body.data),
    kubeconfig: unb64(res.body.data['kubeconfig.yaml']),
  };
}

describe('the demo of `devenv up` (management, edge-demo)', () => {
  let cp: ControlPlane;
  let dir: string;

  beforeAll(async () => {
    // Its own control plane with the demo's cluster names: the demo's fixed names (k3k-sandbox,
    // the registrar's default labels, edge-demo's Nodes) stay out of the clusters other tests share.
    cp = await startControlPlane({
      clusters: ['management', 'edge-demo'],
      ownerPid: process.pid,
    });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'devenv-demo-'));
    fs.writeFileSync(path.join(dir, 'app-config.yaml'), 'app: {}\n');
  });

  afterAll(async () => {
    await cp?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('holds the k3k-style child sandbox, labelled for the registrar, whose Secret reaches edge-demo at its own address; a second run reuses it', async () => {
    const log: string[] = [];
    const first = await setUpDemo(cp, {
      dataDir: dir,
      repoRoot: dir,
      log: m => log.push(m),
    });
    expect(first).toMatchObject({
      name: 'sandbox',
      namespace: 'k3k-sandbox',
      secretName: 'k3k-sandbox-kubeconfig',
      reused: false,
    });
    const admin = cp.client('management');
    for (const ns of ['infrared', 'argocd'])
      await admin.must('GET', `/api/v1/namespaces/${ns}`);
    const ns = await admin.must('GET', '/api/v1/namespaces/k3k-sandbox');
    expect(ns.body.metadata.labels).toMatchObject({
      'argocd-cluster-registrar/managed-by': 'cluster-registrar',
      'argocd-cluster-registrar/cluster': 'sandbox',
    });

    const secret = await childSecret(admin, 'k3k-sandbox', 'sandbox');
    expect(secret.keys).toEqual(['kubeconfig.yaml']);
    const access = parseKubeconfig(secret.kubeconfig);
    const edge = cp.cluster('edge-demo');
    const port = new URL(edge.server).port;
    // The same API server as edge-demo.kubeconfig, by another name its certificate covers.
    expect(edge.server).toBe(`https://127.0.0.1:${port}`);
    expect(access.server).toBe(`https://localhost:${port}`);
    expect(access).toMatchObject({ certData: undefined, keyData: undefined });
    expect(access.token).toMatch(/^ey/);
    const nodes = await KubeClient.fromAccess(access).must(
      'GET',
      '/api/v1/nodes',
    );
    expect(nodes.body.items.map((n: any) => n.metadata.name).sort()).toEqual([
      'edge-demo-node-0',
      'edge-demo-node-1',
    ]);
    expect(
      fs.readFileSync(path.join(dir, 'edge-demo.kubeconfig'), 'utf8'),
    ).toBe(edge.kubeconfig);
    expect(log.join('\n')).toContain('child cluster sandbox');

    const second = await setUpDemo(cp, { dataDir: dir, repoRoot: dir });
    expect(second).toMatchObject({ name: 'sandbox', reused: true });
    expect(
      (await childSecret(admin, 'k3k-sandbox', 'sandbox')).resourceVersion,
    ).toBe(secret.resourceVersion);
  });
});

describe('ensureDemoChild', () => {
  const shared = getTestControlPlane();
  const management = shared.cluster('management');
  const workload = shared.cluster('workload-a');
  const admin = shared.client('management');
  const name = uniqueName('sandbox');
  const managedBy = uniqueName('demo');

  afterAll(async () => {
    await admin.request('DELETE', `/api/v1/namespaces/k3k-${name}`);
    await shared
      .client('workload-a')
      .request(
        'DELETE',
        `/apis/rbac.authorization.k8s.io/v1/clusterrolebindings/infrared-demo-${name}-cluster-admin`,
      );
  });

  it('writes a year-long token and rewrites a Secret that names another server (a port that moved)', async () => {
    const first = await ensureDemoChild(management, workload, {
      name,
      managedBy,
    });
    expect(first.reused).toBe(false);
    const ns = await admin.must('GET', `/api/v1/namespaces/k3k-${name}`);
    expect(ns.body.metadata.labels).toEqual(
      expect.objectContaining({
        'argocd-cluster-registrar/managed-by': managedBy,
        'argocd-cluster-registrar/cluster': name,
      }),
    );
    const { token } = parseKubeconfig(
      (await childSecret(admin, `k3k-${name}`, name)).kubeconfig,
    );
    const exp = JSON.parse(
      Buffer.from(token!.split('.')[1], 'base64url').toString('utf8'),
    ).exp;
    expect(exp * 1000 - Date.now()).toBeGreaterThan(300 * 86_400_000);

    const path1 = `/api/v1/namespaces/k3k-${name}/secrets/k3k-${name}-kubeconfig`;
    const live = (await admin.must('GET', path1)).body;
    const moved = secretWithServer(live, 'https://localhost:1');
    await admin.must('PUT', path1, moved);
    const again = await ensureDemoChild(management, workload, {
      name,
      managedBy,
    });
    expect(again.reused).toBe(false);
    const fixed = parseKubeconfig(
      (await childSecret(admin, `k3k-${name}`, name)).kubeconfig,
    );
    expect(fixed.server).toBe(again.server);
    expect(
      (await KubeClient.fromAccess(fixed).request('GET', '/api/v1/nodes'))
        .status,
    ).toBe(200);
    expect(
      (await ensureDemoChild(management, workload, { name, managedBy })).reused,
    ).toBe(true);
  });
});

function secretWithServer(secret: any, server: string) {
  const text = unb64(secret.data['kubeconfig.yaml']).replace(
    /server: \S+/,
    `server: ${server}`,
  );
  return {
    ...secret,
    data: { 'kubeconfig.yaml': Buffer.from(text).toString('base64') },
  };
}

describe('registrarLabelsFromConfig', () => {
  it("reads infrared.registrar's labelPrefix and managedBy, app-config.local.yaml last, skipping substitutions", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'devenv-config-'));
    try {
      expect(registrarLabelsFromConfig(dir)).toEqual({
        labelPrefix: 'argocd-cluster-registrar/',
        managedBy: 'cluster-registrar',
      });
      fs.writeFileSync(
        path.join(dir, 'app-config.yaml'),
        'infrared:\n  registrar:\n    labelPrefix: acme.io/\n    managedBy: ${REGISTRAR_ID}\n',
      );
      fs.writeFileSync(
        path.join(dir, 'app-config.local.yaml'),
        'infrared:\n  registrar:\n    managedBy: mine\n',
      );
      expect(registrarLabelsFromConfig(dir)).toEqual({
        labelPrefix: 'acme.io/',
        managedBy: 'mine',
      });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

import {
  mockCredentials,
  mockServices,
  startTestBackend,
} from '@backstage/backend-test-utils';
import {
  createNodes,
  eventually,
  getTestControlPlane,
  KubeClient as AdminClient,
  serverAlias,
  uniqueName,
  type ServerAlias,
} from '@internal/devenv';
import {
  ClusterView,
  findCondition,
} from '@infrared-clusters/plugin-infrared-common';
import {
  KubeClient,
  kubeConfigFromText,
  RequestCounter,
} from '@infrared-clusters/infrared-kube';
import {
  KubeRegistrarApi,
  resolveRegistrarOptions,
  runRegistrarPass,
} from '@infrared-clusters/infrared-registrar';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { BAD_REQUESTS } from '../api/__testUtils__/badRequests';
import {
  startBackendOnControlPlane,
  type BackendOnControlPlane,
} from '../__testUtils__/backendOnControlPlane';
import { infraredPlugin } from '../plugin';
import {
  deleteServiceAccount,
  tokenKubeconfig,
  withServer,
} from '../kube/__testUtils__/workload';

jest.setTimeout(180_000);

const TASK = 'infrared-clusters-reconcile';
const b64 = (s: string) => Buffer.from(s).toString('base64');
const unb64 = (s: string) => Buffer.from(s, 'base64').toString('utf8');

/**
 * The backend plugin against a real management API server and a real workload API server
 * (packages/devenv), running as the ServiceAccount `infrared/infrared-backend` with only the RBAC in
 * deploy/rbac, with the local gitops publisher.
 */
describe('cluster registration on a real control plane', () => {
  const cp = getTestControlPlane();
  const management = cp.cluster('management');
  // workload-a at an address of this file's own: one registration per API server (issue 23.1),
  // and other test files register workload-a at the same time
  let workload: ServerAlias;
  const admin = AdminClient.fromKubeconfig(management.kubeconfig);
  const counter = new RequestCounter();
  let backend: BackendOnControlPlane;

  const send = (
    method: 'get' | 'post' | 'delete',
    url: string,
    body?: unknown,
  ) => backend.send(method, url, body);
  const pass = () => backend.pass(TASK);
  const view = async (name: string): Promise<ClusterView> => {
    const res = await send('get', `/v1/clusters/${name}`);
    if (res.status !== 200) throw new Error(`GET ${name}: ${res.status}`);
    return res.body;
  };
  const condition = (v: ClusterView, type: string) => findCondition(v, type);
  const waitRegistered = (name: string) =>
    eventually(
      async () => {
        const v = await view(name);
        return condition(v, 'Registered')?.status === 'True' && v;
      },
      60_000,
      100,
    );
  const getSecret = async (namespace: string, name: string) => {
    const res = await admin.request(
      'GET',
      `/api/v1/namespaces/${namespace}/secrets/${name}`,
    );
    return res.status === 200 ? res.body : undefined;
  };
  const git = (...args: string[]) =>
    execFileSync('git', [`--git-dir=${backend.gitops}`, ...args], {
      encoding: 'utf8',
    }).trim();
  // One registration per API server (issue 23.1): the Clusters a test made at the alias are
  // removed after it, so the next test can register it again.
  const made: string[] = [];
  const register = async (name: string, kubeconfig: string, extra = {}) => {
    const res = await send('post', '/v1/clusters', {
      name,
      kubeconfig,
      ...extra,
    });
    expect(res.status).toBe(201);
    made.push(name);
    return res.body as ClusterView;
  };
  afterEach(async () => {
    for (const name of made.splice(0)) {
      await admin.request(
        'DELETE',
        `/apis/infrared.darkshift.io/v1alpha1/clusters/${name}`,
      );
    }
  });

  beforeAll(async () => {
    workload = await serverAlias(cp, 'workload-a');
    await createNodes(workload, 2, uniqueName('it-node'));
    backend = await startBackendOnControlPlane({
      controlPlane: cp,
      withClient: false,
      counter,
      firstPass: true,
      tmpPrefix: 'infrared-it-',
    });
  });

  afterAll(async () => {
    await backend?.stop();
    await workload?.close();
  });

  it('registers a cluster from a ServiceAccount token kubeconfig: Connected, Argo CD Secret, Registered', async () => {
    const name = uniqueName('edge-token');
    const kubeconfig = await tokenKubeconfig(workload, uniqueName('sa'));
    const token = /token: (\S+)/.exec(kubeconfig)![1];
    const created = await register(name, kubeconfig, {
      flavor: 'k3s',
      provider: 'local',
    });
    expect(JSON.stringify(created)).not.toContain(token);

    const v = await waitRegistered(name);
    const nodes = (
      await AdminClient.fromKubeconfig(workload.kubeconfig).must(
        'GET',
        '/api/v1/nodes',
      )
    ).body.items.length;
    expect(condition(v, 'Connected')).toMatchObject({
      status: 'True',
      reason: 'Connected',
    });
    expect(v.kubernetesVersion).toMatch(/^v1\.\d+\.\d+/);
    expect(v.nodes).toBeGreaterThanOrEqual(2);
    expect(v.nodes).toBeLessThanOrEqual(nodes);
    expect(v.argoSecret).toBe(`cluster-${name}`);
    expect(v.argoServer).toBe(workload.server);
    expect(v.gitopsPath).toBe(
      `registry/clusters/infrared-mgmt/components/cluster-${name}.yaml`,
    );
    expect(v.pullRequest).toMatchObject({
      merged: true,
      commit: expect.any(String),
    });

    const cluster = (
      await admin.must(
        'GET',
        `/apis/infrared.darkshift.io/v1alpha1/clusters/${name}`,
      )
    ).body;
    const kubeconfigSecret = await getSecret(
      'infrared',
      `cluster-${name}-kubeconfig`,
    );
    expect(kubeconfigSecret.metadata.ownerReferences).toEqual([
      expect.objectContaining({
        kind: 'Cluster',
        name,
        uid: cluster.metadata.uid,
        controller: true,
      }),
    ]);
    expect(unb64(kubeconfigSecret.data.kubeconfig)).toBe(kubeconfig);

    const argo = await getSecret('argocd', `cluster-${name}`);
    expect(argo.metadata.labels).toMatchObject({
      'argocd.argoproj.io/secret-type': 'cluster',
      'app.kubernetes.io/managed-by': 'infrared',
    });
    expect(argo.metadata.ownerReferences).toEqual([
      expect.objectContaining({ uid: cluster.metadata.uid }),
    ]);
    expect(unb64(argo.data.name)).toBe(name);
    expect(unb64(argo.data.server)).toBe(workload.server);
    const config = JSON.parse(unb64(argo.data.config));
    expect(config).toEqual({
      bearerToken: token,
      tlsClientConfig: { insecure: false, caData: b64(workload.caData) },
    });

    const app = git(
      'show',
      `main:registry/clusters/infrared-mgmt/components/cluster-${name}.yaml`,
    );
    expect(app).toContain(`name: registry-${name}`);
    expect(app).toContain('argocd.argoproj.io/sync-wave: "50"');
    expect(app).toContain(`path: registry/clusters/${name}/components`);
    expect(
      git('show', `main:registry/clusters/${name}/components/README.md`),
    ).toContain(name);

    // No second change of this cluster's files when they are already there (other test files'
    // Clusters on the shared control plane may be published by these passes: not counted).
    const head = git('rev-parse', 'main');
    await pass();
    await pass();
    expect(
      git(
        'log',
        '--format=%H',
        `${head}..main`,
        '--',
        `registry/clusters/${name}`,
        `registry/clusters/infrared-mgmt/components/cluster-${name}.yaml`,
      ),
    ).toBe('');
  });

  it('registers a cluster from a client-certificate kubeconfig', async () => {
    const name = uniqueName('edge-cert');
    await register(name, workload.kubeconfig);
    const v = await waitRegistered(name);
    expect(condition(v, 'Connected')?.status).toBe('True');
    const argo = await getSecret('argocd', `cluster-${name}`);
    const config = JSON.parse(unb64(argo.data.config));
    expect(config.bearerToken).toBeUndefined();
    expect(config.tlsClientConfig).toEqual({
      insecure: false,
      caData: b64(workload.caData),
      certData: expect.any(String),
      keyData: expect.any(String),
    });
  });

  it('shows Connected False Unreachable for a server nobody listens on, and waits to register', async () => {
    const name = uniqueName('edge-down');
    await register(
      name,
      withServer(workload.kubeconfig, 'https://127.0.0.1:1'),
    );
    const v = await eventually(
      async () => {
        const x = await view(name);
        return condition(x, 'Connected') && x;
      },
      30_000,
      100,
    );
    expect(condition(v, 'Connected')).toMatchObject({
      status: 'False',
      reason: 'Unreachable',
    });
    expect(condition(v, 'Registered')).toMatchObject({
      status: 'False',
      reason: 'WaitingForConnection',
    });
    expect(await getSecret('argocd', `cluster-${name}`)).toBeUndefined();
    expect(() =>
      git(
        'show',
        `main:registry/clusters/infrared-mgmt/components/cluster-${name}.yaml`,
      ),
    ).toThrow();
  });

  it('shows Connected False Unauthorized once the ServiceAccount behind the token is deleted', async () => {
    const name = uniqueName('edge-revoke');
    const sa = uniqueName('sa');
    await register(name, await tokenKubeconfig(workload, sa));
    await waitRegistered(name);
    await deleteServiceAccount(workload, sa);
    // The API server keeps a token it has accepted in its cache for a few seconds.
    const v = await eventually(
      async () => {
        await pass();
        const x = await view(name);
        return condition(x, 'Connected')?.status === 'False' && x;
      },
      60_000,
      1000,
    );
    expect(condition(v, 'Connected')).toMatchObject({
      status: 'False',
      reason: 'Unauthorized',
    });
    expect(condition(v, 'Connected')!.message).toMatch(
      /invalid, expired or revoked/,
    );
    // Registration happened; it stays.
    expect(condition(v, 'Registered')?.status).toBe('True');
  });

  it('rewrites the Argo CD Secret when the kubeconfig Secret is rotated, then leaves it alone', async () => {
    const name = uniqueName('edge-rotate');
    await register(name, await tokenKubeconfig(workload, uniqueName('sa')));
    await waitRegistered(name);
    const rotated = await tokenKubeconfig(workload, uniqueName('sa'));
    await admin.must(
      'PATCH',
      `/api/v1/namespaces/infrared/secrets/cluster-${name}-kubeconfig`,
      { data: { kubeconfig: b64(rotated) } },
      [],
      'application/merge-patch+json',
    );
    await pass();
    const argo = await getSecret('argocd', `cluster-${name}`);
    expect(JSON.parse(unb64(argo.data.config)).bearerToken).toBe(
      /token: (\S+)/.exec(rotated)![1],
    );
    await pass();
    expect(
      (await getSecret('argocd', `cluster-${name}`)).metadata.resourceVersion,
    ).toBe(argo.metadata.resourceVersion);
  });

  it('restores a deleted Argo CD Secret and a hand-edited one, keeping what others added', async () => {
    const name = uniqueName('edge-restore');
    await register(name, workload.kubeconfig);
    await waitRegistered(name);
    const right = await getSecret('argocd', `cluster-${name}`);

    await admin.must(
      'DELETE',
      `/api/v1/namespaces/argocd/secrets/cluster-${name}`,
    );
    await pass();
    const restored = await getSecret('argocd', `cluster-${name}`);
    expect(restored.data).toEqual(right.data);

    await admin.must(
      'PATCH',
      `/api/v1/namespaces/argocd/secrets/cluster-${name}`,
      {
        metadata: {
          annotations: { 'example.com/note': 'kept' },
          labels: { 'app.kubernetes.io/managed-by': null },
        },
        data: {
          server: b64('https://203.0.113.66:6443'),
          project: b64('edge'),
        },
      },
      [],
      'application/merge-patch+json',
    );
    await pass();
    const fixed = await getSecret('argocd', `cluster-${name}`);
    expect(unb64(fixed.data.server)).toBe(workload.server);
    expect(fixed.data.config).toBe(right.data.config);
    expect(unb64(fixed.data.project)).toBe('edge');
    expect(fixed.metadata.annotations['example.com/note']).toBe('kept');
    expect(fixed.metadata.labels['app.kubernetes.io/managed-by']).toBe(
      'infrared',
    );
  });

  it('adopts a hand-made kubeconfig Secret of a Cluster made with kubectl', async () => {
    const name = uniqueName('edge-kubectl');
    await admin.must('POST', '/api/v1/namespaces/infrared/secrets', {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: `${name}-kc`, namespace: 'infrared' },
      stringData: { value: workload.kubeconfig },
    });
    made.push(name);
    const cluster = (
      await admin.must(
        'POST',
        '/apis/infrared.darkshift.io/v1alpha1/clusters',
        {
          apiVersion: 'infrared.darkshift.io/v1alpha1',
          kind: 'Cluster',
          metadata: { name },
          spec: {
            type: 'workload',
            flavor: 'k3s',
            connection: {
              kubeconfigSecretRef: { name: `${name}-kc`, key: 'value' },
            },
          },
        },
      )
    ).body;
    await pass();
    const secret = await getSecret('infrared', `${name}-kc`);
    expect(secret.metadata.ownerReferences).toEqual([
      expect.objectContaining({
        kind: 'Cluster',
        name,
        uid: cluster.metadata.uid,
      }),
    ]);
    expect(secret.metadata.labels['app.kubernetes.io/managed-by']).toBe(
      'infrared',
    );
    const v = await view(name);
    expect(condition(v, 'Connected')?.status).toBe('True');
    expect(condition(v, 'Registered')?.status).toBe('True');
    expect(await getSecret('argocd', `cluster-${name}`)).toBeDefined();
  });

  it('removes a cluster; the garbage collector removes both Secrets; the gitops file stays', async () => {
    const name = uniqueName('edge-remove');
    await register(name, workload.kubeconfig);
    await waitRegistered(name);
    expect((await send('delete', `/v1/clusters/${name}`)).status).toBe(200);
    expect((await send('get', `/v1/clusters/${name}`)).status).toBe(404);
    await eventually(
      async () =>
        !(await getSecret('infrared', `cluster-${name}-kubeconfig`)) &&
        !(await getSecret('argocd', `cluster-${name}`)),
      60_000,
      250,
    );
    expect(
      git(
        'show',
        `main:registry/clusters/infrared-mgmt/components/cluster-${name}.yaml`,
      ),
    ).toContain(`registry-${name}`);
  });

  it('keeps the management cluster: made on start, inCluster, registered, and not removable', async () => {
    const v = await view('infrared-mgmt');
    expect(v).toMatchObject({ type: 'management', connection: 'inCluster' });
    expect(v.argoServer).toBe('https://kubernetes.default.svc');
    expect(v.argoSecret).toBeUndefined();
    expect(condition(v, 'Connected')?.status).toBe('True');
    expect(condition(v, 'Registered')).toMatchObject({
      status: 'True',
      reason: 'ManagementCluster',
      message: expect.stringContaining(
        'root Application registry-infrared-mgmt',
      ),
    });
    expect(v.gitopsPath).toBeUndefined();
    expect(await getSecret('argocd', 'cluster-infrared-mgmt')).toBeUndefined();
    // The gitops template's root Application registry-infrared-mgmt registers it: a second
    // definition in components/ would make the registry sync itself.
    expect(
      git('ls-tree', '-r', '--name-only', 'main', 'registry/clusters/'),
    ).not.toContain('cluster-infrared-mgmt.yaml');
    const res = await send('delete', '/v1/clusters/infrared-mgmt');
    expect(res.status).toBe(409);
    expect(res.body.error.message).toMatch(
      /the management cluster cannot be removed/,
    );
    expect((await view('infrared-mgmt')).name).toBe('infrared-mgmt');
  });

  describe("the registrar and registration never touch each other's Secrets", () => {
    const P = 'argocd-cluster-registrar/';
    const managedBy = uniqueName('reg');
    const registrarPass = async () => {
      const warnings: string[] = [];
      const log = (level: string) => (msg: string, fields?: object) => {
        if (level !== 'debug' && level !== 'info')
          warnings.push(`${msg} ${JSON.stringify(fields ?? {})}`);
      };
      await runRegistrarPass(
        new KubeRegistrarApi(
          new KubeClient(kubeConfigFromText(management.kubeconfig)),
        ),
        resolveRegistrarOptions({ managedBy, providers: ['k3k'] }).options,
        {
          logger: {
            debug: log('debug'),
            info: log('info'),
            warn: log('warn'),
            error: log('error'),
          },
        },
      );
      return warnings;
    };
    // The registrar never registers a second cluster at a server Argo CD already has: remove
    // what these tests registered, so a reused control plane gives the same answers.
    afterAll(async () => {
      await admin.must(
        'DELETE',
        `/api/v1/namespaces/argocd/secrets?labelSelector=${encodeURIComponent(
          `${P}managed-by=${managedBy}`,
        )}`,
      );
    });
    const child = async (cluster: string) => {
      const ns = uniqueName('k3k');
      await admin.must('POST', '/api/v1/namespaces', {
        apiVersion: 'v1',
        kind: 'Namespace',
        metadata: {
          name: ns,
          labels: { [`${P}managed-by`]: managedBy, [`${P}cluster`]: cluster },
        },
      });
      await admin.must('POST', `/api/v1/namespaces/${ns}/secrets`, {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: `k3k-${cluster}-kubeconfig`, namespace: ns },
        // An address of its own (the registrar never registers a second cluster at a server
        // Argo CD already has, and never dials it): data, under loopback's *.localhost
        stringData: {
          'kubeconfig.yaml': withServer(
            workload.kubeconfig,
            `https://${cluster}.localhost:6443`,
          ),
        },
      });
      return ns;
    };

    it("a registrar child's Secret: POST answers 409, a kubectl Cluster gets ArgoSecretConflict, nobody rewrites it", async () => {
      const name = uniqueName('child');
      const ns = await child(name);
      await registrarPass();
      const theirs = await getSecret('argocd', `cluster-${name}`);
      expect(theirs.metadata.labels[`${P}source-namespace`]).toBe(ns);

      const res = await send('post', '/v1/clusters', {
        name,
        kubeconfig: workload.kubeconfig,
      });
      expect(res.status).toBe(409);
      expect(res.body.error.message).toMatch(
        new RegExp(`child-cluster registrar .*from namespace ${ns}`),
      );
      expect(await getSecret('infrared', `cluster-${name}-kubeconfig`)).toBe(
        undefined,
      );

      // the same name made with kubectl, around the API
      made.push(name);
      await admin.must('POST', '/api/v1/namespaces/infrared/secrets', {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: `${name}-kc`, namespace: 'infrared' },
        stringData: { kubeconfig: workload.kubeconfig },
      });
      await admin.must(
        'POST',
        '/apis/infrared.darkshift.io/v1alpha1/clusters',
        {
          apiVersion: 'infrared.darkshift.io/v1alpha1',
          kind: 'Cluster',
          metadata: { name },
          spec: {
            type: 'workload',
            connection: {
              kubeconfigSecretRef: { name: `${name}-kc`, key: 'kubeconfig' },
            },
          },
        },
      );
      await pass();
      await pass();
      await registrarPass();
      const v = await view(name);
      expect(condition(v, 'Connected')?.status).toBe('True');
      expect(condition(v, 'Registered')).toMatchObject({
        status: 'False',
        reason: 'ArgoSecretConflict',
      });
      expect(v.argoSecret).toBeUndefined();
      const after = await getSecret('argocd', `cluster-${name}`);
      expect(after.metadata.resourceVersion).toBe(
        theirs.metadata.resourceVersion,
      );
      expect(after.metadata.ownerReferences).toBeUndefined();
      expect(
        git('ls-tree', '-r', '--name-only', 'main', 'registry/clusters/'),
      ).not.toContain(`cluster-${name}.yaml`);
    });

    it("a registered Cluster's Secret: the registrar leaves it alone and says why", async () => {
      const name = uniqueName('edge-owned');
      await register(name, workload.kubeconfig);
      await waitRegistered(name);
      const ours = await getSecret('argocd', `cluster-${name}`);
      await child(name);
      const warnings = await registrarPass();
      expect(warnings.join('\n')).toMatch(/not_managed/);
      await pass();
      const after = await getSecret('argocd', `cluster-${name}`);
      expect(after.metadata.resourceVersion).toBe(
        ours.metadata.resourceVersion,
      );
      expect(after.metadata.labels[`${P}managed-by`]).toBeUndefined();
      expect(condition(await view(name), 'Registered')?.status).toBe('True');
    });
  });

  it('refuses every bad request with 400 and writes nothing', async () => {
    // only the objects these requests could write: other test files make Clusters at the same time
    const names = new Set(
      BAD_REQUESTS.map(([, body]) => (body as { name?: unknown }).name).filter(
        (name): name is string => typeof name === 'string',
      ),
    );
    const written = async () => {
      const clusters = (
        await admin.must('GET', '/apis/infrared.darkshift.io/v1alpha1/clusters')
      ).body.items.filter((c: any) => names.has(c.metadata.name));
      const secrets = (
        await admin.must('GET', '/api/v1/namespaces/infrared/secrets')
      ).body.items.filter((s: any) =>
        [...names].some(n => s.metadata.name === `cluster-${n}-kubeconfig`),
      );
      return [...clusters, ...secrets].map(
        (o: any) =>
          `${o.kind ?? 'Secret'} ${o.metadata.name}@${
            o.metadata.resourceVersion
          }`,
      );
    };
    const before = await written();
    for (const [what, body, patterns] of BAD_REQUESTS) {
      const res = await send('post', '/v1/clusters', body);
      expect([what, res.status]).toEqual([what, 400]);
      for (const p of patterns) expect(res.body.error.message).toMatch(p);
    }
    expect(names.size).toBeGreaterThan(2);
    expect(await written()).toEqual(before);
  });

  it('answers 409 for a name that is taken and writes nothing', async () => {
    const name = uniqueName('edge-twice');
    await register(name, workload.kubeconfig);
    const secret = await getSecret('infrared', `cluster-${name}-kubeconfig`);
    const res = await send('post', '/v1/clusters', { name, inCluster: true });
    expect(res.status).toBe(409);
    expect(
      (await getSecret('infrared', `cluster-${name}-kubeconfig`)).metadata
        .resourceVersion,
    ).toBe(secret.metadata.resourceVersion);
  });

  it('writes nothing in a pass when everything is already right', async () => {
    const name = uniqueName('edge-steady');
    await register(name, workload.kubeconfig);
    await waitRegistered(name);
    await pass();
    const before = counter.byVerb();
    // this file's Argo CD Secrets: other test files' backends write theirs meanwhile
    const ours = async () =>
      (await admin.must('GET', '/api/v1/namespaces/argocd/secrets')).body.items
        .filter((s: any) => made.some(n => s.metadata.name === `cluster-${n}`))
        .map((s: any) => `${s.metadata.name}@${s.metadata.resourceVersion}`)
        .sort();
    const secretsBefore = await ours();
    expect(secretsBefore.length).toBeGreaterThan(0);
    await pass();
    const after = counter.byVerb();
    for (const verb of ['POST', 'DELETE']) {
      expect([verb, (after[verb] ?? 0) - (before[verb] ?? 0)]).toEqual([
        verb,
        0,
      ]);
    }
    expect(await ours()).toEqual(secretsBefore);
  });

  it('reaches the management cluster through infrared.managementCluster.kubeconfigPath', async () => {
    const file = path.join(backend.tmp, 'backend.kubeconfig');
    fs.writeFileSync(file, backend.kubeconfig);
    const { server: other } = await startTestBackend({
      features: [
        infraredPlugin,
        mockServices.scheduler.factory({ skipTaskRunOnStartup: true }),
        mockServices.rootConfig.factory({
          data: {
            infrared: {
              managementCluster: { kubeconfigPath: file },
              gitops: {
                type: 'local',
                path: path.join(backend.tmp, 'other.git'),
              },
            },
          },
        }),
      ],
    });
    const res = await request(other)
      .get('/api/infrared/v1/clusters/infrared-mgmt')
      .set('Authorization', mockCredentials.user.header());
    expect(res.status).toBe(200);
    expect(res.body.type).toBe('management');
  });
});

import {
  mockCredentials,
  mockServices,
  startTestBackend,
} from '@backstage/backend-test-utils';
import { catalogServiceMock } from '@backstage/plugin-catalog-node/testUtils';
import kubernetesPlugin from '@backstage/plugin-kubernetes-backend';
import {
  createServiceAccountKubeconfig,
  eventually,
  getTestControlPlane,
  KubeClient as AdminClient,
  parseManifests,
  serverSideApply,
  uniqueName,
  type ClusterInfo,
} from '@internal/devenv';
import {
  kubeconfigSecret,
  type ClusterResource,
} from '@infrared-clusters/plugin-infrared-common';
// The backend's own test set-up: deploy/ applied (the CRDs of this tree), the backend's ServiceAccount.
// eslint-disable-next-line @backstage/no-relative-monorepo-imports
import { prepareManagementCluster } from '../../infrared-backend/src/clusters/__testUtils__/managementCluster';
import {
  KubeClient,
  kubeConfigFromText,
} from '@infrared-clusters/infrared-kube';
import fs from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { moduleKubeconfig } from './__testUtils__/moduleAccess';
import { createInfraredKubernetesModule } from './module';

jest.setTimeout(180_000);

/** The chart's read-only ClusterRole, as deploy/rbac holds its render. */
const VIEWER_ROLE_FILE = path.resolve(
  __dirname,
  '../../../deploy/rbac/60-kubernetes-viewer.yaml',
);
const VIEWER_ROLE = 'infrared-kubernetes-viewer';
const CLUSTERS = '/apis/infrared.darkshift.io/v1alpha1/clusters';

/**
 * The Kubernetes plugin's proxy and the read-only credential, with the real Kubernetes backend
 * (@backstage/plugin-kubernetes-backend) and this module under an allow-everything permission
 * policy (startTestBackend's), against devenv's management and workload-a API servers. Three
 * Clusters are written as the reconciler leaves them (Registered): an inCluster one, and two
 * names for workload-a with its admin kubeconfig (the credential Argo CD uses), one of which
 * `infrared.kubernetes.proxy.clusters` opens.
 */
describe('the Kubernetes proxy and the read-only credential on a real control plane', () => {
  const cp = getTestControlPlane();
  const management = cp.cluster('management');
  const workload = cp.cluster('workload-a');
  const mgmtAdmin = AdminClient.fromKubeconfig(management.kubeconfig);
  const workloadAdmin = AdminClient.fromKubeconfig(workload.kubeconfig);
  const mgmtName = uniqueName('k8sp-mgmt');
  const closedName = uniqueName('k8sp-closed');
  const openName = uniqueName('k8sp-open');
  const serviceId = uniqueName('k8sp-app');
  const viewers: Array<{ cluster: ClusterInfo; name: string }> = [];
  const secrets: string[] = [];
  const entity = {
    apiVersion: 'backstage.io/v1alpha1',
    kind: 'Component',
    metadata: {
      name: serviceId,
      namespace: 'default',
      annotations: { 'backstage.io/kubernetes-id': serviceId },
    },
    spec: { type: 'service', owner: 'group:default/platform-admins' },
  };
  const DEPLOYMENT = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name: serviceId,
      labels: { 'backstage.io/kubernetes-id': serviceId },
    },
    spec: {
      replicas: 0,
      selector: { matchLabels: { app: serviceId } },
      template: {
        metadata: { labels: { app: serviceId } },
        spec: { containers: [{ name: 'app', image: 'nginx' }] },
      },
    },
  };
  let server: any;

  const user = (req: request.Test) =>
    req.set('Authorization', mockCredentials.user.header());
  const proxy = (
    method: 'get' | 'post',
    cluster: string | undefined,
    p: string,
  ) => {
    const req = user(request(server)[method](`/api/kubernetes${p}`));
    return cluster ? req.set('Backstage-Kubernetes-Cluster', cluster) : req;
  };
  const clusters = async (): Promise<string[]> => {
    const res = await user(request(server).get('/api/kubernetes/clusters'));
    expect(res.status).toBe(200);
    return res.body.items.map((c: { name: string }) => c.name);
  };
  const objects = async () => {
    const res = await user(
      request(server).post(`/api/kubernetes/services/${serviceId}`),
    ).send({ entity, auth: {} });
    expect([res.status, res.status === 200 ? undefined : res.body]).toEqual([
      200,
      undefined,
    ]);
    return res.body.items as any[];
  };
  const tabOf = async (cluster: string) => {
    const mine = (await objects()).find(i => i.cluster.name === cluster);
    return {
      errors: mine?.errors as any[] | undefined,
      deployments: mine?.resources
        .find((r: any) => r.type === 'deployments')
        ?.resources.map((d: any) => d.metadata.name) as string[] | undefined,
    };
  };

  /** A Cluster as the reconciler leaves it once it reached it: Registered. */
  async function writeCluster(
    name: string,
    connection: ClusterResource['spec']['connection'],
  ) {
    const created = await mgmtAdmin.must('POST', CLUSTERS, {
      apiVersion: 'infrared.darkshift.io/v1alpha1',
      kind: 'Cluster',
      metadata: { name },
      spec: {
        type: connection?.inCluster ? 'management' : 'workload',
        connection,
      },
    });
    await mgmtAdmin.must('PUT', `${CLUSTERS}/${name}/status`, {
      ...created.body,
      status: {
        conditions: [
          {
            type: 'Registered',
            status: 'True',
            reason: 'Registered',
            message: 'test',
            lastTransitionTime: new Date().toISOString().replace(/\.\d+/, ''),
          },
        ],
      },
    });
  }

  async function putSecret(name: string, kubeconfig: string) {
    const s = kubeconfigSecret({ clusterName: 'x', kubeconfig });
    s.metadata.name = name;
    secrets.push(name);
    await mgmtAdmin.must('POST', '/api/v1/namespaces/infrared/secrets', s);
  }

  /** A ServiceAccount bound to the shipped ClusterRole; its kubeconfig in a Secret of infrared. */
  async function viewerSecret(cluster: ClusterInfo, secretName: string) {
    const name = uniqueName('k8sp-viewer');
    viewers.push({ cluster, name });
    const kubeconfig = await createServiceAccountKubeconfig(cluster, {
      namespace: 'default',
      name,
      clusterRole: VIEWER_ROLE,
    });
    await putSecret(secretName, kubeconfig);
    return { kubeconfig, account: name };
  }

  /** Names the viewer Secret on a Cluster, until the API server keeps it (a new CRD schema). */
  async function setViewer(cluster: string, secretName: string) {
    await eventually(
      async () => {
        await mgmtAdmin.must(
          'PATCH',
          `${CLUSTERS}/${cluster}`,
          {
            spec: {
              connection: { viewerKubeconfigSecretRef: { name: secretName } },
            },
          },
          [],
          'application/merge-patch+json',
        );
        const got = await mgmtAdmin.must('GET', `${CLUSTERS}/${cluster}`);
        return (
          got.body.spec.connection.viewerKubeconfigSecretRef?.name ===
          secretName
        );
      },
      30_000,
      500,
    );
  }

  beforeAll(async () => {
    // the CRDs of this tree (spec.connection.viewerKubeconfigSecretRef), the namespaces
    await prepareManagementCluster(management);
    const viewerRole = parseManifests(
      fs.readFileSync(VIEWER_ROLE_FILE, 'utf8'),
    );
    await serverSideApply(management, viewerRole);
    await serverSideApply(workload, viewerRole);
    const moduleAccess = await moduleKubeconfig(management);
    // the entity's Deployment on both API servers (no controller runs: an object only)
    for (const admin of [workloadAdmin, mgmtAdmin]) {
      await admin.must(
        'POST',
        '/apis/apps/v1/namespaces/default/deployments',
        DEPLOYMENT,
      );
    }
    for (const name of [closedName, openName]) {
      await putSecret(`cluster-${name}-kubeconfig`, workload.kubeconfig);
      await writeCluster(name, {
        kubeconfigSecretRef: {
          name: `cluster-${name}-kubeconfig`,
          key: 'kubeconfig',
        },
      });
    }
    await writeCluster(mgmtName, { inCluster: true });

    ({ server } = await startTestBackend({
      features: [
        kubernetesPlugin,
        createInfraredKubernetesModule({
          management: new KubeClient(kubeConfigFromText(moduleAccess)),
        }),
        catalogServiceMock.factory({ entities: [entity] }),
        mockServices.rootConfig.factory({
          data: {
            infrared: {
              kubernetes: {
                skipMetricsLookup: true,
                proxy: { clusters: [openName] },
              },
            },
            kubernetes: {
              serviceLocatorMethod: { type: 'multiTenant' },
              clusterLocatorMethods: [{ type: 'config', clusters: [] }],
            },
          },
        }),
      ],
    }));
    await eventually(
      async () => {
        const names = await clusters();
        return names.includes(closedName) && names.includes(openName);
      },
      30_000,
      200,
    );
  });

  afterAll(async () => {
    for (const name of [mgmtName, closedName, openName]) {
      await mgmtAdmin.request('DELETE', `${CLUSTERS}/${name}`);
    }
    for (const name of secrets) {
      await mgmtAdmin.request(
        'DELETE',
        `/api/v1/namespaces/infrared/secrets/${name}`,
      );
    }
    for (const { cluster, name } of viewers) {
      const admin = AdminClient.fromKubeconfig(cluster.kubeconfig);
      await admin.request(
        'DELETE',
        `/api/v1/namespaces/default/serviceaccounts/${name}`,
      );
      await admin.request(
        'DELETE',
        `/apis/rbac.authorization.k8s.io/v1/clusterrolebindings/default-${name}-${VIEWER_ROLE}`,
      );
    }
    for (const admin of [workloadAdmin, mgmtAdmin]) {
      await admin.request(
        'DELETE',
        `/apis/apps/v1/namespaces/default/deployments/${serviceId}`,
      );
    }
  });

  it('refuses a signed-in user the proxy to a workload Cluster config does not open: 403 naming the cluster and the key, and a POSTed Namespace is not created', async () => {
    for (const p of [
      '/proxy/api/v1/namespaces/infrared/secrets',
      '/proxy/api/v1/namespaces/kube-system/secrets',
      '/Proxy/api/v1/namespaces/kube-system/secrets',
    ]) {
      const res = await proxy('get', closedName, p);
      expect([p, res.status, res.body.error?.message]).toEqual([
        p,
        403,
        expect.stringContaining(
          `cluster ${closedName} is closed: add ${closedName} to infrared.kubernetes.proxy.clusters`,
        ),
      ]);
    }
    const namespace = uniqueName('k8sp-ns');
    const created = await proxy(
      'post',
      closedName,
      '/proxy/api/v1/namespaces',
    ).send({
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: namespace },
    });
    expect(created.status).toBe(403);
    // and one naming no cluster at all
    expect(
      (await proxy('get', undefined, '/proxy/api/v1/secrets')).status,
    ).toBe(403);
    const stored = await workloadAdmin.request(
      'GET',
      `/api/v1/namespaces/${namespace}`,
    );
    expect(stored.status).toBe(404);
  });

  it("never supplies the management Cluster with the backend's identity: left out without a viewer kubeconfig, and the proxy to it refused", async () => {
    expect(await clusters()).not.toContain(mgmtName);
    const res = await proxy(
      'get',
      mgmtName,
      '/proxy/api/v1/namespaces/infrared/secrets',
    );
    expect(res.status).toBe(403);
    expect(JSON.stringify(res.body)).not.toMatch(/kubeconfig|"items"/);
    const namespace = uniqueName('k8sp-ns');
    const created = await proxy(
      'post',
      mgmtName,
      '/proxy/api/v1/namespaces',
    ).send({
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: namespace },
    });
    expect(created.status).toBe(403);
    expect(
      (await mgmtAdmin.request('GET', `/api/v1/namespaces/${namespace}`))
        .status,
    ).toBe(404);
  });

  it('opens the proxy to the cluster config names, and only that one; the tab keeps working on both', async () => {
    const opened = await proxy(
      'get',
      openName,
      `/proxy/apis/apps/v1/namespaces/default/deployments/${serviceId}`,
    );
    expect([opened.status, opened.body.metadata?.name]).toEqual([
      200,
      serviceId,
    ]);
    expect((await proxy('get', closedName, '/proxy/version')).status).toBe(403);
    for (const name of [closedName, openName]) {
      expect(await tabOf(name)).toEqual({
        errors: [],
        deployments: [serviceId],
      });
    }
  });

  it('reads the tab through a viewer Secret bound to the shipped ClusterRole; that identity reads no Secret and creates no Namespace, in the tab or through the proxy', async () => {
    const viewer = await viewerSecret(workload, `${closedName}-viewer`);
    // the identity itself, against the real API server
    const asViewer = AdminClient.fromKubeconfig(viewer.kubeconfig);
    expect(
      (
        await asViewer.request(
          'GET',
          `/apis/apps/v1/namespaces/default/deployments/${serviceId}`,
        )
      ).status,
    ).toBe(200);
    expect(
      (await asViewer.request('GET', '/api/v1/namespaces/kube-system/secrets'))
        .status,
    ).toBe(403);
    expect((await asViewer.request('GET', '/api/v1/secrets')).status).toBe(403);
    const namespace = uniqueName('k8sp-ns');
    expect(
      (
        await asViewer.request('POST', '/api/v1/namespaces', {
          apiVersion: 'v1',
          kind: 'Namespace',
          metadata: { name: namespace },
        })
      ).status,
    ).toBe(403);

    await setViewer(closedName, `${closedName}-viewer`);
    await setViewer(openName, `${closedName}-viewer`);
    // the opened cluster's proxy now goes as the viewer: it reads the Deployment, not Secrets
    await eventually(
      async () =>
        (
          await proxy(
            'get',
            openName,
            '/proxy/api/v1/namespaces/kube-system/secrets',
          )
        ).status === 403,
      30_000,
      200,
    );
    const refused = await proxy(
      'get',
      openName,
      '/proxy/api/v1/namespaces/kube-system/secrets',
    );
    expect(refused.body.reason ?? refused.body.kind).toBeDefined(); // the API server's own Status
    expect(
      (
        await proxy('post', openName, '/proxy/api/v1/namespaces').send({
          apiVersion: 'v1',
          kind: 'Namespace',
          metadata: { name: namespace },
        })
      ).status,
    ).toBe(403);
    expect(
      (await workloadAdmin.request('GET', `/api/v1/namespaces/${namespace}`))
        .status,
    ).toBe(404);
    expect(
      (
        await proxy(
          'get',
          openName,
          `/proxy/apis/apps/v1/namespaces/default/deployments/${serviceId}`,
        )
      ).status,
    ).toBe(200);
    expect(await tabOf(closedName)).toEqual({
      errors: [],
      deployments: [serviceId],
    });

    // the viewer revoked: the tab says the cluster refused it, so that credential was the one in use
    await workloadAdmin.must(
      'DELETE',
      `/api/v1/namespaces/default/serviceaccounts/${viewer.account}`,
    );
    await eventually(
      async () =>
        (await tabOf(closedName)).errors?.some(e => e.statusCode === 401) ??
        false,
      30_000,
      500,
    );
  });

  it('supplies the management Cluster with its viewer kubeconfig only, which reads no Secret there; its proxy stays closed', async () => {
    const viewer = await viewerSecret(management, `${mgmtName}-viewer`);
    const asViewer = AdminClient.fromKubeconfig(viewer.kubeconfig);
    expect(
      (await asViewer.request('GET', '/api/v1/namespaces/infrared/secrets'))
        .status,
    ).toBe(403);
    expect(
      (await asViewer.request('DELETE', `${CLUSTERS}/${closedName}`)).status,
    ).toBe(403);
    await setViewer(mgmtName, `${mgmtName}-viewer`);
    await eventually(
      async () => (await clusters()).includes(mgmtName),
      30_000,
      200,
    );
    expect(await tabOf(mgmtName)).toEqual({
      errors: [],
      deployments: [serviceId],
    });
    expect(
      (
        await proxy(
          'get',
          mgmtName,
          '/proxy/api/v1/namespaces/infrared/secrets',
        )
      ).status,
    ).toBe(403);
    // the viewer revoked: the management Cluster's tab is refused (401), no other identity stands in
    await mgmtAdmin.must(
      'DELETE',
      `/api/v1/namespaces/default/serviceaccounts/${viewer.account}`,
    );
    await eventually(
      async () =>
        (await tabOf(mgmtName)).errors?.some(e => e.statusCode === 401) ??
        false,
      30_000,
      500,
    );
  });
});

import { mockCredentials } from '@backstage/backend-test-utils';
import { catalogServiceMock } from '@backstage/plugin-catalog-node/testUtils';
import kubernetesPlugin from '@backstage/plugin-kubernetes-backend';
import {
  createServiceAccountKubeconfig,
  eventually,
  getTestControlPlane,
  KubeClient as AdminClient,
  serverAlias,
  uniqueName,
  type ServerAlias,
} from '@internal/devenv';
// The backend's own test set-up: the Infrared backend plugin on the control plane, as the
// ServiceAccount of deploy/ (the test runs both plugins together).
// eslint-disable-next-line @backstage/no-relative-monorepo-imports
import { startBackendOnControlPlane } from '../../infrared-backend/src/__testUtils__/backendOnControlPlane';
import {
  KubeClient,
  kubeConfigFromText,
  RequestCounter,
} from '@infrared-clusters/infrared-kube';
import request from 'supertest';
import { moduleKubeconfig } from './__testUtils__/moduleAccess';
import type { InfraredCaches } from './caches';
import { createInfraredKubernetesModule } from './module';

jest.setTimeout(180_000);

const CLUSTERS_TASK = 'infrared-clusters-reconcile';
const LIST_ROLE = 'infrared-kubernetes-module-test-lister';

/**
 * The real Kubernetes backend (@backstage/plugin-kubernetes-backend) with the Infrared backend
 * plugin and this module, against devenv's API servers: workload-a registered through the Infrared
 * API is listed by the Kubernetes backend and its Deployment comes back for the entity; removed, it
 * is gone without a restart; a tab load costs the management cluster no request.
 */
describe('the Kubernetes backend with Infrared clusters on a real control plane', () => {
  const cp = getTestControlPlane();
  const management = cp.cluster('management');
  const workload = cp.cluster('workload-a');
  const workloadAdmin = AdminClient.fromKubeconfig(workload.kubeconfig);
  const counter = new RequestCounter();
  const clusterName = uniqueName('k8s');
  const serviceId = uniqueName('k8s-app');
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
  // workload-a registered at an address of its own: one registration per API server (issue 23.1),
  // and other test files register workload-a at the same time
  let alias: ServerAlias;
  let server: any;
  let stopBackend: (() => Promise<void>) | undefined;
  let caches: InfraredCaches | undefined;

  const auth = (req: request.Test) =>
    req.set('Authorization', mockCredentials.user.header());
  const clusters = async (): Promise<string[]> => {
    const res = await auth(request(server).get('/api/kubernetes/clusters'));
    expect(res.status).toBe(200);
    return res.body.items.map((c: { name: string }) => c.name);
  };
  const objects = async () => {
    const res = await auth(
      request(server).post(`/api/kubernetes/services/${serviceId}`),
    ).send({ entity, auth: {} });
    expect([res.status, res.status === 200 ? undefined : res.body]).toEqual([
      200,
      undefined,
    ]);
    return res.body.items as any[];
  };
  let pass: () => Promise<void>;

  beforeAll(async () => {
    alias = await serverAlias(cp, 'workload-a');
    const moduleAccess = await moduleKubeconfig(management);
    await workloadAdmin.must(
      'POST',
      '/apis/apps/v1/namespaces/default/deployments',
      {
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
      },
    );
    const backend = await startBackendOnControlPlane({
      controlPlane: cp,
      features: [
        kubernetesPlugin,
        createInfraredKubernetesModule({
          management: new KubeClient(kubeConfigFromText(moduleAccess), {
            counter,
          }),
          onCaches: c => {
            caches = c;
          },
        }),
        catalogServiceMock.factory({ entities: [entity] }),
      ],
      infrared: { kubernetes: { skipMetricsLookup: true } },
      config: {
        kubernetes: {
          serviceLocatorMethod: { type: 'multiTenant' },
          clusterLocatorMethods: [{ type: 'config', clusters: [] }],
        },
      },
      tmpPrefix: 'infrared-k8s-it-',
    });
    server = backend.server;
    pass = () => backend.pass(CLUSTERS_TASK);
    stopBackend = backend.stop;
  });

  afterAll(async () => {
    await workloadAdmin.request(
      'DELETE',
      `/apis/apps/v1/namespaces/default/deployments/${serviceId}`,
    );
    await stopBackend?.();
    await alias?.close();
  });

  it('lists a cluster once it is Registered and returns its Deployment for the entity, with no management request per tab load', async () => {
    expect(await clusters()).not.toContain(clusterName);
    const registered = await auth(
      request(server).post('/api/infrared/v1/clusters'),
    ).send({ name: clusterName, kubeconfig: alias.kubeconfig });
    expect(registered.status).toBe(201);

    // the reconciler makes it Registered; the watch brings it to the supplier
    await eventually(
      async () => {
        await pass();
        return (await clusters()).includes(clusterName);
      },
      90_000,
      250,
    );

    const connects = () =>
      (caches?.clusters.connects ?? 0) + (caches?.secrets.connects ?? 0);
    counter.reset();
    const connectsBefore = connects();
    // a Kubernetes tab load: the cluster list and the entity's objects
    expect(await clusters()).toContain(clusterName);
    const items = await objects();
    expect(counter.total).toBe(0);
    expect(connects()).toBe(connectsBefore);

    const mine = items.find(i => i.cluster.name === clusterName);
    expect(mine?.errors).toEqual([]);
    const deployments = mine.resources.find(
      (r: any) => r.type === 'deployments',
    );
    expect(deployments.resources.map((d: any) => d.metadata.name)).toEqual([
      serviceId,
    ]);
    // nothing of the kubeconfig (client certificate, key) reaches a response
    const body = JSON.stringify({ items, clusters: await clusters() });
    expect(body).not.toMatch(/BEGIN|PRIVATE KEY|client-key-data/);
  });

  it('takes the credential from the kubeconfig Secret at request time: a bearer token put there is used at once', async () => {
    const reader = uniqueName('k8s-reader');
    // (devenv aggregates no `view` role: a role that lists everything, for the tab's LISTs)
    await workloadAdmin.createIfAbsent(
      '/apis/rbac.authorization.k8s.io/v1/clusterroles',
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRole',
        metadata: { name: LIST_ROLE },
        rules: [{ apiGroups: ['*'], resources: ['*'], verbs: ['list'] }],
      },
    );
    const tokenKubeconfig = await createServiceAccountKubeconfig(alias, {
      namespace: 'default',
      name: reader,
      clusterRole: LIST_ROLE,
    });
    const secretPath = `/api/v1/namespaces/infrared/secrets/cluster-${clusterName}-kubeconfig`;
    const admin = AdminClient.fromKubeconfig(management.kubeconfig);
    const secret = (await admin.must('GET', secretPath)).body;
    secret.data.kubeconfig = Buffer.from(tokenKubeconfig).toString('base64');
    await admin.must('PUT', secretPath, secret);

    const deploymentsFor = (items: any[]) =>
      items
        .find(i => i.cluster.name === clusterName)
        ?.resources.find((r: any) => r.type === 'deployments')
        ?.resources.map((d: any) => d.metadata.name);
    // the watch brings the new Secret; the token works like the certificate did
    await eventually(
      async () => deploymentsFor(await objects())?.[0] === serviceId,
      30_000,
      200,
    );

    // revoked: the next load says the cluster refused it, and nothing of the token
    await workloadAdmin.must(
      'DELETE',
      `/api/v1/namespaces/default/serviceaccounts/${reader}`,
    );
    const refused = await eventually(
      async () => {
        const mine = (await objects()).find(
          i => i.cluster.name === clusterName,
        );
        return mine?.errors?.some((e: any) => e.statusCode === 401) && mine;
      },
      30_000,
      500,
    );
    expect(JSON.stringify(refused)).not.toContain(
      tokenKubeconfig.match(/token: (\S+)/)![1],
    );
  });

  it('drops a removed cluster without a restart', async () => {
    const removed = await auth(
      request(server).delete(`/api/infrared/v1/clusters/${clusterName}`),
    );
    expect(removed.status).toBeLessThan(300);
    await eventually(
      async () => {
        await pass();
        return !(await clusters()).includes(clusterName);
      },
      60_000,
      250,
    );
    const items = await objects();
    expect(items.find(i => i.cluster.name === clusterName)).toBeUndefined();
  });
});

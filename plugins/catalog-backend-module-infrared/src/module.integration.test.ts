import {
  coreServices,
  createServiceFactory,
  type LoggerService,
} from '@backstage/backend-plugin-api';
import {
  mockCredentials,
  mockServices,
  startTestBackend,
} from '@backstage/backend-test-utils';
import catalogPlugin from '@backstage/plugin-catalog-backend';
import { eventsServiceFactory } from '@backstage/plugin-events-node';
import {
  eventually,
  getTestControlPlane,
  KubeClient as AdminClient,
  serverAlias,
  uniqueName,
  type ServerAlias,
  removeTestDir,
} from '@internal/devenv';
// the integration test runs the backend plugin whose events the module hears: a test-only import
// eslint-disable-next-line @backstage/no-mixed-plugin-imports
import infraredPlugin from '@infrared-clusters/plugin-infrared-backend';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { catalogModuleInfrared } from './module';

jest.setTimeout(180_000);

/** Every log line of the backend, by plugin: how the test sees which mutations the provider made. */
class RecordingLogger implements LoggerService {
  constructor(
    private readonly lines: string[],
    private readonly plugin: string,
  ) {}
  private add(message: string) {
    this.lines.push(`${this.plugin}: ${message}`);
  }
  error(message: string) {
    this.add(message);
  }
  warn(message: string) {
    this.add(message);
  }
  info(message: string) {
    this.add(message);
  }
  debug() {}
  child() {
    return this;
  }
}

/**
 * The catalog backend, the infrared backend and this module in one test backend, on the real
 * management API server of packages/devenv (its admin kubeconfig through
 * `infrared.managementCluster.kubeconfigPath`, as `npm start` configures it), with Backstage's own
 * events service shared by the plugins.
 */
describe('catalog module on a real control plane', () => {
  const cp = getTestControlPlane();
  const management = cp.cluster('management');
  const workload = cp.cluster('workload-a');
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'infrared-catalog-it-'));
  const lines: string[] = [];
  const admin = AdminClient.fromKubeconfig(management.kubeconfig);
  // a Product whose zone runs on a cluster registered in a test, and its catalog entity
  const productNamespace = uniqueName('ir-org-catalog');
  const placedCluster = uniqueName('catalog-placed');
  const productEntity = uniqueName('catalog-product');
  let server: any;
  let stop: () => Promise<void>;

  const mutations = (type: 'full' | 'delta') =>
    lines.filter(l =>
      l.startsWith(`catalog: infrared: catalog ${type} mutation`),
    );
  const entity = async (name: string, kind = 'resource') => {
    const res = await request(server)
      .get(`/api/catalog/entities/by-name/${kind}/default/${name}`)
      .set('Authorization', mockCredentials.user.header());
    return res.status === 200 ? res.body : undefined;
  };
  const infrared = (method: 'post' | 'delete', url: string) =>
    request(server)
      [method](`/api/infrared${url}`)
      .set('Authorization', mockCredentials.user.header());

  // each registration at an address of its own: one registration per API server (issue 23.1),
  // and other test files register workload-a at the same time
  const aliases: ServerAlias[] = [];
  const register = async (name: string) => {
    const at = await serverAlias(cp, 'workload-a');
    aliases.push(at);
    const created = await infrared('post', '/v1/clusters').send({
      name,
      kubeconfig: at.kubeconfig,
      flavor: 'k3s',
      provider: 'local',
    });
    expect(created.status).toBe(201);
    return at;
  };

  beforeAll(async () => {
    await admin.must('POST', '/api/v1/namespaces', {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: productNamespace },
    });
    await admin.must(
      'POST',
      `/apis/infrared.darkshift.io/v1alpha1/namespaces/${productNamespace}/products`,
      {
        apiVersion: 'infrared.darkshift.io/v1alpha1',
        kind: 'Product',
        metadata: { name: 'shop', namespace: productNamespace },
        spec: {
          displayName: 'Shop',
          repos: [{ name: 'shop' }],
          delivery: {
            zones: [
              { name: `${productNamespace}-pre`, cluster: placedCluster },
            ],
          },
        },
      },
    );
    const entitiesFile = path.join(tmp, 'entities.yaml');
    fs.writeFileSync(
      entitiesFile,
      `apiVersion: backstage.io/v1alpha1
kind: Component
metadata:
  name: ${productEntity}
  annotations:
    infrared.darkshift.io/product: ${productNamespace}/shop
spec:
  type: service
  owner: group:default/platform-admins
  lifecycle: experimental
`,
    );
    const backend = await startTestBackend({
      features: [
        catalogPlugin,
        infraredPlugin,
        catalogModuleInfrared,
        eventsServiceFactory,
        createServiceFactory({
          service: coreServices.logger,
          deps: { plugin: coreServices.pluginMetadata },
          factory: ({ plugin }) => new RecordingLogger(lines, plugin.getId()),
        }),
        mockServices.rootConfig.factory({
          data: {
            events: { useEventBus: 'never' },
            infrared: {
              managementCluster: {
                kubeconfigPath: management.kubeconfigPath,
              },
              gitops: { type: 'local', path: path.join(tmp, 'gitops.git') },
            },
            catalog: {
              locations: [
                { type: 'file', target: entitiesFile },
                // this repository's own catalog-info.yaml: the plugin's Component and its API
                {
                  type: 'file',
                  target: path.resolve(__dirname, '../../../catalog-info.yaml'),
                },
              ],
              providers: {
                infrared: {
                  // only the first run in this test: what follows is deltas
                  schedule: {
                    frequency: { hours: 24 },
                    timeout: { minutes: 3 },
                  },
                },
              },
            },
          },
        }),
      ],
    });
    server = backend.server;
    stop = () => backend.stop();
    await eventually(async () => mutations('full').length > 0, 60_000, 100);
  });

  afterAll(async () => {
    await stop?.();
    await admin.request('DELETE', `/api/v1/namespaces/${productNamespace}`);
    await admin.request(
      'DELETE',
      `/apis/infrared.darkshift.io/v1alpha1/clusters/${placedCluster}`,
    );
    removeTestDir(tmp);
    await Promise.all(aliases.map(a => a.close()));
  });

  it('a Cluster registered through the API is a Resource after one delta, and is removed with it', async () => {
    const name = uniqueName('catalog-it');
    const deltasBefore = mutations('delta').length;
    const at = await register(name);

    const first = await eventually(() => entity(name), 60_000, 100);
    // the first delta after the registration (the `registered` event) already added it
    const deltas = mutations('delta').slice(deltasBefore);
    expect(deltas[0]).toContain(`for cluster ${name} registered: 1 added`);
    expect(mutations('full')).toHaveLength(1);
    expect(first).toMatchObject({
      kind: 'Resource',
      spec: {
        type: 'kubernetes-cluster',
        owner: 'group:default/platform-admins',
      },
      metadata: {
        annotations: {
          'infrared.darkshift.io/cluster': name,
          'kubernetes.io/api-server': at.server,
          'kubernetes.io/api-server-certificate-authority': Buffer.from(
            workload.caData,
          ).toString('base64'),
          'kubernetes.io/auth-provider': 'infrared',
        },
        tags: ['k3s', 'local'],
      },
    });
    // the admin kubeconfig's client key and certificate are in no entity
    const key = /client-key-data: (\S+)/.exec(workload.kubeconfig)![1];
    const cert = /client-certificate-data: (\S+)/.exec(workload.kubeconfig)![1];
    expect(JSON.stringify(first)).not.toContain(key);
    expect(JSON.stringify(first)).not.toContain(cert);

    // the pass after the write gives the status: the Argo CD server and the gitops path
    const reconciled = await eventually(async () => {
      const e = await entity(name);
      return e?.metadata.annotations['infrared.darkshift.io/gitops-path'] && e;
    });
    expect(reconciled.metadata.annotations).toMatchObject({
      'infrared.darkshift.io/argocd-server': at.server,
      'infrared.darkshift.io/gitops-path': `registry/clusters/infrared-mgmt/components/cluster-${name}.yaml`,
    });

    const removed = await infrared('delete', `/v1/clusters/${name}`);
    expect(removed.status).toBe(200);
    await eventually(async () => !(await entity(name)), 60_000, 100);
    expect(mutations('delta').slice(deltasBefore)).toContainEqual(
      expect.stringContaining(
        `for cluster ${name} removed: 0 added, 1 removed`,
      ),
    );
    expect(mutations('full')).toHaveLength(1);
  });

  it('the entity of a Product dependsOn the Resource of the cluster its zone runs on', async () => {
    await register(placedCluster);
    const relation = (type: string, targetRef: string) =>
      expect.arrayContaining([{ type, targetRef }]);
    const resource = await eventually(async () => {
      const e = await entity(placedCluster);
      return e?.relations?.some((r: any) => r.type === 'dependencyOf') && e;
    });
    expect(resource.relations).toEqual(
      relation('dependencyOf', `component:default/${productEntity}`),
    );
    const product = await entity(productEntity, 'component');
    expect(product.relations).toEqual(
      relation('dependsOn', `resource:default/${placedCluster}`),
    );
  });

  it("this repository's catalog-info.yaml: the plugin's Component provides the openapi API entity", async () => {
    const api = await eventually(() => entity('infrared-api', 'api'));
    expect(api.spec).toMatchObject({ type: 'openapi' });
    expect(api.spec.definition).toContain('openapi: 3.0.3');
    const component = await eventually(async () => {
      const e = await entity('infrared-clusters', 'component');
      return e?.relations?.some((r: any) => r.type === 'providesApi') && e;
    });
    expect(component.relations).toEqual(
      expect.arrayContaining([
        { type: 'providesApi', targetRef: 'api:default/infrared-api' },
      ]),
    );
  });
});

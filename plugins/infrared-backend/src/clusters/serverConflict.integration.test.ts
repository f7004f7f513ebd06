import {
  getTestControlPlane,
  KubeClient as AdminClient,
  uniqueName,
} from '@internal/devenv';
import {
  startBackendOnControlPlane,
  type BackendOnControlPlane,
} from '../__testUtils__/backendOnControlPlane';
import { tokenKubeconfig, withServer } from '../kube/__testUtils__/workload';

jest.setTimeout(180_000);

const CLUSTERS = '/apis/infrared.darkshift.io/v1alpha1/clusters';

/**
 * Issue 23.1 on a real management API server, the backend running as its ServiceAccount: one
 * registration per API server. The servers are unique to this run (a loopback port nobody listens
 * on, a path of this run), so other tests sharing the control plane never meet them.
 */
describe('one registration per API server, on a real control plane', () => {
  const cp = getTestControlPlane();
  const management = cp.cluster('management');
  const workload = cp.cluster('workload-a');
  const admin = AdminClient.fromKubeconfig(management.kubeconfig);
  const run = uniqueName('srv');
  const serverFor = (what: string) => `https://127.0.0.1:9/${run}/${what}`;
  const registered: string[] = [];
  const childSecret = `cluster-${uniqueName('child')}`;
  let backend: BackendOnControlPlane;
  let kubeconfig: string;

  const post = (body: object) => backend.send('post', '/v1/clusters', body);
  const register = async (name: string, body: object) => {
    const res = await post({ name, ...body });
    expect([name, res.status]).toEqual([name, 201]);
    registered.push(name);
  };
  const exists = async (namespace: string | undefined, name: string) => {
    const url = namespace
      ? `/api/v1/namespaces/${namespace}/secrets/${name}`
      : `${CLUSTERS}/${name}`;
    return (await admin.request('GET', url)).status === 200;
  };
  const expectNothingFor = async (name: string) => {
    expect(await exists(undefined, name)).toBe(false);
    expect(await exists('infrared', `cluster-${name}-kubeconfig`)).toBe(false);
    expect(await exists('argocd', `cluster-${name}`)).toBe(false);
  };

  beforeAll(async () => {
    kubeconfig = await tokenKubeconfig(workload, uniqueName('sa'));
    backend = await startBackendOnControlPlane({
      controlPlane: cp,
      withClient: false,
      tmpPrefix: 'infrared-it-',
    });
  });

  afterAll(async () => {
    for (const name of registered) {
      await admin.request('DELETE', `${CLUSTERS}/${name}`);
    }
    await admin.request(
      'DELETE',
      `/api/v1/namespaces/argocd/secrets/${childSecret}`,
    );
    await backend?.stop();
  });

  it("a second Cluster with the kubeconfig's server, or with spec.server naming it (trailing / too): 409 naming the first, nothing written", async () => {
    const first = uniqueName('edge-first');
    const taken = serverFor('a');
    await register(first, { kubeconfig: withServer(kubeconfig, taken) });
    for (const body of [
      { kubeconfig: withServer(kubeconfig, taken) },
      { kubeconfig: withServer(kubeconfig, `${taken}/`) },
      { kubeconfig: withServer(kubeconfig, serverFor('b')), server: taken },
      {
        kubeconfig: withServer(kubeconfig, serverFor('b')),
        server: `${taken}/`,
      },
    ]) {
      const second = uniqueName('edge-second');
      const res = await post({ name: second, ...body });
      expect(res.status).toBe(409);
      expect(res.body.error.message).toContain(
        `server ${taken} is already registered as cluster ${first}`,
      );
      expect(res.body.error.message).toMatch(
        new RegExp(`existing registration wins.*remove cluster ${first} first`),
      );
      await expectNothingFor(second);
    }
    expect(await exists(undefined, first)).toBe(true);
  });

  it("a Cluster with the server of a registrar child's Argo CD Secret: 409 naming the child", async () => {
    const taken = serverFor('child');
    await admin.must('POST', '/api/v1/namespaces/argocd/secrets', {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: {
        name: childSecret,
        namespace: 'argocd',
        labels: {
          'argocd.argoproj.io/secret-type': 'cluster',
          'argocd-cluster-registrar/managed-by': 'cluster-registrar',
          'argocd-cluster-registrar/source-namespace': 'k3k-sandbox',
        },
      },
      stringData: { name: 'sandbox', server: `${taken}/`, config: '{}' },
    });
    const name = uniqueName('edge-child');
    const res = await post({
      name,
      kubeconfig: withServer(kubeconfig, taken),
    });
    expect(res.status).toBe(409);
    expect(res.body.error.message).toContain(
      `server ${taken} is already registered as the registrar's child cluster sandbox (Secret argocd/${childSecret}`,
    );
    expect(res.body.error.message).toMatch(/existing registration wins/);
    await expectNothingFor(name);
  });

  it('different servers still register', async () => {
    const [c, d] = [uniqueName('edge-c'), uniqueName('edge-d')];
    await register(c, { kubeconfig: withServer(kubeconfig, serverFor('c')) });
    // the kubeconfig names c, but spec.server d is what Argo CD keys it by
    await register(d, {
      kubeconfig: withServer(kubeconfig, serverFor('c')),
      server: serverFor('d'),
    });
    expect([await exists(undefined, c), await exists(undefined, d)]).toEqual([
      true,
      true,
    ]);
  });
});

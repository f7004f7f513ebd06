import {
  getTestControlPlane,
  KubeClient as AdminClient,
  uniqueName,
} from '@internal/devenv';
import {
  startBackendOnControlPlane,
  type BackendOnControlPlane,
} from '../__testUtils__/backendOnControlPlane';
import { placementObjects } from '../__testUtils__/placementObjects';
import { putAppProject } from './__testUtils__/argocd';

jest.setTimeout(120_000);

const API = '/apis/infrared.darkshift.io/v1alpha1';

/**
 * The placement routes of the backend plugin on the real management API server, running as the
 * ServiceAccount infrared/infrared-backend with only the RBAC of deploy/rbac.
 */
describe('placement routes on a real control plane', () => {
  const cp = getTestControlPlane();
  const management = cp.cluster('management');
  const admin = AdminClient.fromKubeconfig(management.kubeconfig);
  const org = uniqueName('api');
  const ns = `ir-org-${org}`;
  const edge = `edge-${org}`;
  const zone = `prod-${org}`;
  const project = `products-${org}`;
  let backend: BackendOnControlPlane;

  const send = (method: 'get' | 'put', url: string, body?: unknown) =>
    backend.send(method, url, body);
  const orgObject = async () =>
    (await admin.must('GET', `${API}/organizations/${org}`)).body;

  beforeAll(async () => {
    backend = await startBackendOnControlPlane({
      controlPlane: cp,
      argoCrds: true,
      infrared: { placement: { project } },
    });
    const objects = placementObjects(admin);
    await objects.createOrganization(org, { displayName: 'API org' });
    await objects.createCluster(edge);
    await objects.createProduct(
      ns,
      'checkout',
      [{ name: zone, cluster: edge }],
      'Checkout',
    );
    await putAppProject(admin, project, [{ name: edge, namespace: zone }]);
  });

  afterAll(async () => {
    await backend?.stop();
    await admin.request(
      'DELETE',
      `/apis/argoproj.io/v1alpha1/namespaces/argocd/appprojects/${project}`,
    );
    await admin.request('DELETE', `/api/v1/namespaces/${ns}`);
    await admin.request('DELETE', `${API}/organizations/${org}`);
    await admin.request('DELETE', `${API}/clusters/${edge}`);
  });

  it('PUT replaces the allowlist as the ServiceAccount; bad input and unknown orgs write nothing', async () => {
    let placement = await send('get', `/v1/products/${ns}/checkout/placement`);
    expect(placement.status).toBe(200);
    expect(placement.body.zones[0]).toMatchObject({
      decision: 'Fails',
      reason: 'NotOnAllowlist',
    });

    const put = await send('put', `/v1/orgs/${org}/cluster-allowlist`, {
      clusters: [edge],
    });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({ clusters: [edge] });
    expect((await orgObject()).spec.clusterAllowlist).toEqual([edge]);

    placement = await send('get', `/v1/products/${ns}/checkout/placement`);
    expect(placement.body.zones[0]).toMatchObject({
      decision: 'Promotes',
      reason: 'Registered',
      destination: { name: edge, namespace: zone },
      choices: [edge],
      clusterKnown: true,
    });

    const rv = (await orgObject()).metadata.resourceVersion;
    const bad = await send('put', `/v1/orgs/${org}/cluster-allowlist`, {
      clusters: [edge, edge],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.errors).toEqual([
      expect.objectContaining({ field: 'clusters[1]' }),
    ]);
    const unknown = await send(
      'put',
      `/v1/orgs/${org}-nope/cluster-allowlist`,
      {
        clusters: [edge],
      },
    );
    expect(unknown.status).toBe(404);
    expect((await orgObject()).metadata.resourceVersion).toBe(rv);

    const zones = await send('get', '/v1/zones');
    expect(
      zones.body.items.filter((z: any) => z.product.namespace === ns),
    ).toEqual([
      {
        product: { namespace: ns, name: 'checkout', displayName: 'Checkout' },
        org,
        zone,
        environment: 'pre-release',
        cluster: edge,
        clusterSet: true,
      },
    ]);
    const orgs = await send('get', '/v1/orgs');
    expect(orgs.body.items.find((o: any) => o.name === org)).toEqual({
      name: org,
      displayName: 'API org',
      namespace: ns,
      platform: false,
      clusterAllowlist: [edge],
    });
  });

  it('says when the zone names a cluster no Cluster resource has (the card offers to register it)', async () => {
    const zoneOn = (cluster: string) =>
      admin.must(
        'PATCH',
        `${API}/namespaces/${ns}/products/checkout`,
        { spec: { delivery: { zones: [{ name: zone, cluster }] } } },
        [],
        'application/merge-patch+json',
      );
    await zoneOn(`gone-${org}`);
    try {
      const placement = await send(
        'get',
        `/v1/products/${ns}/checkout/placement`,
      );
      expect(placement.body.zones[0]).toMatchObject({
        cluster: `gone-${org}`,
        decision: 'Fails',
        reason: 'NotOnAllowlist',
        clusterKnown: false,
      });
    } finally {
      await zoneOn(edge);
    }
  });

  it("sets a zone's cluster as the ServiceAccount (a platform admin asks)", async () => {
    const res = await send(
      'put',
      `/v1/products/${ns}/checkout/zones/${zone}/cluster`,
      {
        cluster: '',
      },
    );
    expect(res.status).toBe(200);
    expect(res.body.zones[0]).toMatchObject({ cluster: 'infrared-mgmt' });
    const product = (
      await admin.must('GET', `${API}/namespaces/${ns}/products/checkout`)
    ).body;
    expect(product.spec.delivery.zones).toEqual([
      { name: zone, environment: 'pre-release' },
    ]);
  });
});

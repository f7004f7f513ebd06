import type { ProductZone } from '@infrared-clusters/plugin-infrared-common';
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

jest.setTimeout(180_000);

const API = '/apis/infrared.darkshift.io/v1alpha1';

/**
 * Issue 22.7 on the real management API server, as the ServiceAccount infrared/infrared-backend
 * with only deploy/rbac: two Products with a zone of the same name, and the removal of the cluster
 * their zones use.
 */
describe('removing a cluster that zones use, on a real control plane', () => {
  const cp = getTestControlPlane();
  const management = cp.cluster('management');
  const admin = AdminClient.fromKubeconfig(management.kubeconfig);
  const id = uniqueName('rm');
  const orgA = `${id}-a`;
  const orgB = `${id}-b`;
  const nsA = `ir-org-${orgA}`;
  const nsB = `ir-org-${orgB}`;
  const edge = `edge-${id}`;
  const other = `other-${id}`;
  const zone = `prod-${id}`;
  const blogZone = `blog-${id}`;
  const project = `products-${id}`;
  let backend: BackendOnControlPlane;

  const send = (method: 'get' | 'delete', url: string) =>
    backend.send(method, url);
  const allowlistOf = async (org: string) =>
    (await admin.must('GET', `${API}/organizations/${org}`)).body.spec
      .clusterAllowlist;
  const objects = placementObjects(admin);
  const createCluster = () => objects.createCluster(edge);
  const product = (ns: string, name: string, zones: ProductZone[]) =>
    objects.createProduct(ns, name, zones);

  beforeAll(async () => {
    backend = await startBackendOnControlPlane({
      controlPlane: cp,
      argoCrds: true,
      infrared: { placement: { project } },
    });
    for (const [org, allowlist] of [
      [orgA, [edge]],
      [orgB, [edge, other]],
    ] as const) {
      await objects.createOrganization(org, {
        clusterAllowlist: [...allowlist],
      });
    }
    await createCluster();
    // shop first: it is the older Product, so it keeps the zone name
    await product(nsA, 'shop', [{ name: zone, cluster: edge }]);
    await new Promise(r => setTimeout(r, 1100)); // creationTimestamp has seconds
    await product(nsB, 'blog', [
      { name: zone, cluster: edge },
      { name: blogZone, cluster: edge },
    ]);
    await putAppProject(admin, project, [
      { name: edge, namespace: zone },
      { name: edge, namespace: blogZone },
    ]);
  });

  afterAll(async () => {
    await backend?.stop();
    await admin.request(
      'DELETE',
      `/apis/argoproj.io/v1alpha1/namespaces/argocd/appprojects/${project}`,
    );
    for (const org of [orgA, orgB]) {
      await admin.request('DELETE', `/api/v1/namespaces/ir-org-${org}`);
      await admin.request('DELETE', `${API}/organizations/${org}`);
    }
    await admin.request('DELETE', `${API}/clusters/${edge}`);
  });

  it("refuses the younger Product's zone of the same name, naming the Product that keeps it", async () => {
    const shop = await send('get', `/v1/products/${nsA}/shop/placement`);
    expect(shop.status).toBe(200);
    expect(shop.body.zones[0]).toMatchObject({
      name: zone,
      decision: 'Promotes',
      applicationName: `product-${zone}`,
      applicationPath: `registry/clusters/${edge}/components/product-${zone}.yaml`,
    });
    const blog = await send('get', `/v1/products/${nsB}/blog/placement`);
    expect(
      blog.body.zones.map((z: any) => [z.name, z.decision, z.reason]),
    ).toEqual([
      [zone, 'Fails', 'ZoneTaken'],
      [blogZone, 'Promotes', 'Registered'],
    ]);
    expect(blog.body.zones[0].message).toContain(
      `zone ${zone} is taken by zone ${zone} of Product ${nsA}/shop`,
    );
  });

  it('DELETE answers the zones that stop and takes the name off both allowlists; a new cluster of the name is not allowed', async () => {
    const res = await send('delete', `/v1/clusters/${edge}`);
    expect(res.status).toBe(200);
    expect(res.body.name).toBe(edge);
    expect(
      res.body.zones.map(
        (z: any) => `${z.product.namespace}/${z.product.name}/${z.zone}`,
      ),
    ).toEqual([
      // by Product, then in the Product's zone order
      `${nsA}/shop/${zone}`,
      `${nsB}/blog/${zone}`,
      `${nsB}/blog/${blogZone}`,
    ]);
    expect(res.body.allowlists).toEqual([orgA, orgB]);
    expect(res.body.message).toContain('Zones on the cluster stop deploying');
    expect(await allowlistOf(orgA)).toEqual([]);
    expect(await allowlistOf(orgB)).toEqual([other]);

    const b = await send('get', `/v1/orgs/${orgB}/cluster-allowlist`);
    expect(b.body).toEqual({ clusters: [other], gone: [other] });

    // the Cluster is gone once Kubernetes says so; then one of the same name is made again
    for (let i = 0; i < 100; i++) {
      const got = await admin.request('GET', `${API}/clusters/${edge}`);
      if (got.status === 404) break;
      await new Promise(r => setTimeout(r, 100));
    }
    await createCluster();
    const shop = await send('get', `/v1/products/${nsA}/shop/placement`);
    expect(shop.body.zones[0]).toMatchObject({
      decision: 'Fails',
      reason: 'NotOnAllowlist',
    });
  });
});

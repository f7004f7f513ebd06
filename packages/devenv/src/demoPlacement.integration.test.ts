import { installCrds } from './helpers';
import { KubeClient } from '@infrared-clusters/infrared-kube';
import { setUpPlacementDemo } from './demoPlacement';
import { getTestControlPlane, uniqueName } from './testing';
import path from 'node:path';

jest.setTimeout(120_000);

const API = '/apis/infrared.darkshift.io/v1alpha1';

describe('the placement demo of `devenv up`', () => {
  const cp = getTestControlPlane();
  const management = cp.cluster('management');
  const admin = KubeClient.fromKubeconfig(management.kubeconfig);
  // Names of its own on the shared control plane (the demo's are acme, checkout and products).
  const org = uniqueName('acme');
  const product = 'checkout';
  const project = uniqueName('products');
  const namespace = `ir-org-${org}`;
  const repoRoot = path.resolve(__dirname, '../../..');

  beforeAll(async () => {
    await installCrds(
      management,
      path.resolve(__dirname, '../../../deploy/crds'),
    );
  });

  afterAll(async () => {
    await admin.request('DELETE', `/api/v1/namespaces/${namespace}`);
    await admin.request('DELETE', `${API}/organizations/${org}`);
    await admin.request(
      'DELETE',
      `/apis/argoproj.io/v1alpha1/namespaces/argocd/appprojects/${project}`,
    );
  });

  it('makes the org, its Product with two zones, a promoting Release and the AppProject; a second run keeps what is there', async () => {
    const first = await setUpPlacementDemo(management, {
      repoRoot,
      org,
      product,
      project,
    });
    expect(first).toEqual({
      org,
      namespace,
      product,
      zones: ['checkout-rc', 'checkout-prod'],
      release: 'checkout-v0-1-0',
      created: [
        `Organization ${org}`,
        `Product ${namespace}/checkout`,
        `AppProject ${project}`,
        `Release ${namespace}/checkout-v0-1-0`,
      ],
    });
    const orgObject = (await admin.must('GET', `${API}/organizations/${org}`))
      .body;
    expect(orgObject.status.namespace).toBe(namespace);
    expect(orgObject.spec.teams).toEqual([
      { name: 'leads', role: 'org-admin', members: ['user:development/guest'] },
    ]);
    const productObject = (
      await admin.must(
        'GET',
        `${API}/namespaces/${namespace}/products/checkout`,
      )
    ).body;
    expect(productObject.spec.delivery.zones).toEqual([
      { name: 'checkout-rc', environment: 'pre-release' },
      { name: 'checkout-prod', environment: 'release', cluster: 'edge-demo' },
    ]);
    const release = (
      await admin.must(
        'GET',
        `${API}/namespaces/${namespace}/releases/checkout-v0-1-0`,
      )
    ).body;
    expect(release.status.phase).toBe('Promoting');
    const appProject = (
      await admin.must(
        'GET',
        `/apis/argoproj.io/v1alpha1/namespaces/argocd/appprojects/${project}`,
      )
    ).body;
    expect(appProject.spec.destinations).toEqual([
      { server: 'https://kubernetes.default.svc', namespace: 'checkout-rc' },
      { name: 'edge-demo', namespace: 'checkout-prod' },
    ]);

    // Someone ticks the org for edge-demo; the next `devenv up` keeps it.
    await admin.must(
      'PATCH',
      `${API}/organizations/${org}`,
      { spec: { clusterAllowlist: ['edge-demo'] } },
      [],
      'application/merge-patch+json',
    );
    const second = await setUpPlacementDemo(management, {
      repoRoot,
      org,
      product,
      project,
    });
    expect(second.created).toEqual([]);
    expect(
      (await admin.must('GET', `${API}/organizations/${org}`)).body.spec
        .clusterAllowlist,
    ).toEqual(['edge-demo']);
  });
});

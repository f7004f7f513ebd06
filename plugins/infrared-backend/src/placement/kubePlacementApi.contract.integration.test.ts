/*
 * The PlacementKubeApi contract against the real API server: KubePlacementApi on the devenv control
 * plane's management cluster (Infrared's CRDs from deploy/crds, Argo CD's from the test fixtures),
 * in namespaces of this run's own. memoryPlacementApi.contract.test.ts runs the same cases against
 * the in-memory fake the route tests use.
 */
import {
  KubeClient,
  KubePlacementApi,
  kubeConfigFromText,
} from '@infrared-clusters/infrared-kube';
import {
  ensureNamespace,
  getTestControlPlane,
  installCrds,
  KubeClient as AdminClient,
} from '@internal/devenv';
import path from 'node:path';
import { installArgoCrds } from './__testUtils__/argocd';
import { describePlacementKubeApiContract } from './__testUtils__/placementKubeApiContract';

jest.setTimeout(120_000);

const CRDS = path.resolve(__dirname, '../../../../deploy/crds');
const API = '/apis/infrared.darkshift.io/v1alpha1';
const ARGO = '/apis/argoproj.io/v1alpha1';
const management = getTestControlPlane().cluster('management');
const admin = AdminClient.fromKubeconfig(management.kubeconfig);
const namespaces = new Set<string>();
const orgs: string[] = [];

const inNamespace = async (namespace: string) => {
  if (!namespaces.has(namespace)) {
    namespaces.add(namespace);
    await ensureNamespace(management, namespace);
  }
  return namespace;
};

describePlacementKubeApiContract('the devenv API server', async () => {
  await installCrds(management, CRDS);
  await installArgoCrds(management);
  return {
    api: new KubePlacementApi(
      new KubeClient(kubeConfigFromText(management.kubeconfig)),
    ),
    async createOrganization(name, clusterAllowlist) {
      orgs.push(name);
      await admin.must('POST', `${API}/organizations`, {
        apiVersion: 'infrared.darkshift.io/v1alpha1',
        kind: 'Organization',
        metadata: { name },
        spec: { displayName: name, clusterAllowlist },
      });
    },
    async createProduct(namespace, name, zones) {
      await admin.must(
        'POST',
        `${API}/namespaces/${await inNamespace(namespace)}/products`,
        {
          apiVersion: 'infrared.darkshift.io/v1alpha1',
          kind: 'Product',
          metadata: { name, namespace },
          spec: { displayName: name, repos: [{ name }], delivery: { zones } },
        },
      );
    },
    async createRelease(namespace, name, product, status) {
      const releases = `${API}/namespaces/${await inNamespace(
        namespace,
      )}/releases`;
      await admin.must('POST', releases, {
        apiVersion: 'infrared.darkshift.io/v1alpha1',
        kind: 'Release',
        metadata: { name, namespace },
        spec: { productRef: { name: product } },
      });
      await admin.must(
        'PATCH',
        `${releases}/${name}/status`,
        { status },
        [],
        'application/merge-patch+json',
      );
    },
    async createArgo(kind, namespace, name, labels) {
      const plural = kind === 'Application' ? 'applications' : 'appprojects';
      await admin.must(
        'POST',
        `${ARGO}/namespaces/${await inNamespace(namespace)}/${plural}`,
        {
          apiVersion: 'argoproj.io/v1alpha1',
          kind,
          metadata: { name, namespace, labels },
          spec:
            kind === 'Application'
              ? {
                  project: 'default',
                  source: { repoURL: 'https://git.example/x.git', path: '.' },
                  destination: { name: 'in-cluster', namespace },
                }
              : { sourceRepos: ['*'] },
        },
      );
    },
    async cleanUp() {
      for (const name of orgs) {
        await admin.request('DELETE', `${API}/organizations/${name}`);
      }
      for (const name of namespaces) {
        await admin.request('DELETE', `/api/v1/namespaces/${name}`);
      }
    },
  };
});

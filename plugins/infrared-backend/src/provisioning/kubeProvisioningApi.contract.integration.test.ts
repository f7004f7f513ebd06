/*
 * The ProvisioningKubeApi contract against the real API server: KubeProvisioningApi on the devenv
 * control plane's management cluster (the Cluster CRD from deploy/crds; the job controller of the
 * control plane runs), in namespaces of this run's own. memoryProvisioningApi.contract.test.ts runs
 * the same cases against the in-memory fake the route and plugin tests use.
 */
import {
  KubeClient,
  KubeProvisioningApi,
  kubeConfigFromText,
} from '@infrared-clusters/infrared-kube';
import {
  ensureNamespace,
  getTestControlPlane,
  installCrds,
  KubeClient as AdminClient,
} from '@internal/devenv';
import path from 'node:path';
import { describeProvisioningKubeApiContract } from './__testUtils__/provisioningKubeApiContract';

jest.setTimeout(120_000);

const CRDS = path.resolve(__dirname, '../../../../deploy/crds/clusters.yaml');
const CLUSTERS = '/apis/infrared.darkshift.io/v1alpha1/clusters';
const management = getTestControlPlane().cluster('management');
const admin = AdminClient.fromKubeconfig(management.kubeconfig);
const namespaces: string[] = [];
const clusters: string[] = [];

describeProvisioningKubeApiContract('the devenv API server', async () => {
  await installCrds(management, CRDS);
  return {
    api: new KubeProvisioningApi(
      new KubeClient(kubeConfigFromText(management.kubeconfig)),
    ),
    async createNamespaces(names) {
      for (const name of names) {
        namespaces.push(name);
        await ensureNamespace(management, name);
      }
    },
    async createPod(namespace, name, labels) {
      await admin.must('POST', `/api/v1/namespaces/${namespace}/pods`, {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name, namespace, labels },
        spec: {
          containers: [{ name: 'tofu', image: 'registry.invalid/tofu:0' }],
        },
      });
    },
    async createCluster(name, spec) {
      clusters.push(name);
      await admin.must('POST', CLUSTERS, {
        apiVersion: 'infrared.darkshift.io/v1alpha1',
        kind: 'Cluster',
        metadata: { name },
        spec,
      });
    },
    async getCluster(name) {
      const res = await admin.request('GET', `${CLUSTERS}/${name}`);
      return res.status === 200 ? res.body : undefined;
    },
    async cleanUp() {
      for (const name of clusters) {
        await admin.request('DELETE', `${CLUSTERS}/${name}`);
      }
      for (const name of namespaces) {
        await admin.request('DELETE', `/api/v1/namespaces/${name}`);
      }
    },
  };
});

/*
 * The ProvisioningKubeApi contract against the in-memory fake the route and plugin tests use;
 * kubeProvisioningApi.contract.integration.test.ts runs the same cases against the real API server.
 */
import type { ObservedPod } from '@infrared-clusters/infrared-kube';
import { InMemoryManagementApi } from '@infrared-clusters/infrared-kube/testUtils';
import { describeProvisioningKubeApiContract } from './__testUtils__/provisioningKubeApiContract';
import { MemoryProvisioningApi } from './__testUtils__/memoryProvisioningApi';

describeProvisioningKubeApiContract('MemoryProvisioningApi', async () => {
  const management = new InMemoryManagementApi();
  const api = new MemoryProvisioningApi(management);
  return {
    api,
    async createNamespaces() {},
    async createPod(namespace, name, labels) {
      const pod = { metadata: { name, namespace, labels } } as ObservedPod;
      api.pods.push({ ...pod, status: { phase: 'Pending' } });
    },
    async createCluster(name, spec) {
      await management.clusters.create({
        apiVersion: 'infrared.darkshift.io/v1alpha1',
        kind: 'Cluster',
        metadata: { name },
        spec,
      });
    },
    getCluster: name => management.clusters.get(name),
  };
});

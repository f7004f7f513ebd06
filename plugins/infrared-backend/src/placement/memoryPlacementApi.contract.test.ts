/*
 * The PlacementKubeApi contract against the in-memory fake the route tests use;
 * kubePlacementApi.contract.integration.test.ts runs the same cases against the real API server.
 */
import { describePlacementKubeApiContract } from './__testUtils__/placementKubeApiContract';
import { MemoryPlacementApi } from './__testUtils__/memoryPlacementApi';

describePlacementKubeApiContract('MemoryPlacementApi', async () => {
  const api = new MemoryPlacementApi();
  let version = 0;
  return {
    api,
    async createOrganization(name, clusterAllowlist) {
      api.addOrg(name, { clusterAllowlist });
    },
    async createProduct(namespace, name, zones) {
      api.addProduct(namespace, name, zones);
    },
    async createRelease(namespace, name, product, status) {
      api.releases.set(`${namespace}/${name}`, {
        apiVersion: 'infrared.darkshift.io/v1alpha1',
        kind: 'Release',
        metadata: { name, namespace, resourceVersion: `r${++version}` },
        spec: { productRef: { name: product } },
        status,
      });
    },
    async createArgo(kind, namespace, name, labels) {
      const store = kind === 'Application' ? api.applications : api.appProjects;
      store.set(`${namespace}/${name}`, {
        apiVersion: 'argoproj.io/v1alpha1',
        kind,
        metadata: { name, namespace, labels },
        spec: {},
      });
    },
  };
});

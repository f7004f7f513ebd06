/*
 * The RegistrarApi contract against the in-memory fake the executor's tests use;
 * api.contract.integration.test.ts runs the same cases against the real API server.
 */
import { describeRegistrarApiContract } from './__testUtils__/registrarApiContract';
import { MemoryRegistrarApi } from './testUtils/memoryRegistrarApi';

describeRegistrarApiContract('MemoryRegistrarApi', async () => {
  const api = new MemoryRegistrarApi();
  return {
    api,
    async createNamespace(name, labels) {
      api.createNamespace(name, labels);
    },
    async putSecret(secret) {
      api.addSecret(secret);
    },
  };
});

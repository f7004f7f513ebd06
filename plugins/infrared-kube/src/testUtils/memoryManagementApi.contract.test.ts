/*
 * The ManagementApi contract against the in-memory fake; kube/resources.contract.integration.test.ts
 * runs the same cases against the real API server, so that the fake cannot drift from it.
 */
import { describeManagementApiContract } from '../__testUtils__/managementApiContract';
import { InMemoryManagementApi } from './memoryManagementApi';

describeManagementApiContract('InMemoryManagementApi', async () => ({
  api: new InMemoryManagementApi(),
  namespace: 'contract',
  // The fake collects garbage at once: what it has not done by now, it never does.
  eventually: async check => {
    const done = await check();
    if (!done) throw new Error('not done: the fake does it at once or never');
    return done;
  },
}));

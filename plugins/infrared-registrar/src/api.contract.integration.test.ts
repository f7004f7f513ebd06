/*
 * The RegistrarApi contract against the real API server: KubeRegistrarApi on the devenv control
 * plane's management cluster. memoryApi.contract.test.ts runs the same cases against the fake the
 * executor's tests use.
 */
import { getTestControlPlane } from '@internal/devenv';
import { KubeClient } from '@infrared-clusters/infrared-kube';
import { KubeRegistrarApi } from './api';
import { describeRegistrarApiContract } from './__testUtils__/registrarApiContract';

jest.setTimeout(120_000);

const management = getTestControlPlane().cluster('management');
const admin = KubeClient.fromKubeconfig(management.kubeconfig);
const made: string[] = [];

describeRegistrarApiContract('the devenv API server', async () => ({
  api: new KubeRegistrarApi(KubeClient.fromKubeconfig(management.kubeconfig)),
  async createNamespace(name, labels) {
    made.push(name);
    await admin.must('POST', '/api/v1/namespaces', {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name, labels },
    });
  },
  async putSecret(secret) {
    await admin.must(
      'POST',
      `/api/v1/namespaces/${secret.metadata.namespace}/secrets`,
      secret,
    );
  },
  async cleanUp() {
    for (const name of made) {
      await admin.request('DELETE', `/api/v1/namespaces/${name}`);
    }
  },
}));

import { mockServices } from '@backstage/backend-test-utils';
import { renderKubeconfig } from '@infrared-clusters/infrared-kube';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInfraredKube, createManagementClient } from './service';

const config = (managementCluster: object) =>
  mockServices.rootConfig({ data: { infrared: { managementCluster } } });

describe('createManagementClient', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'infrared-kube-'));
  const kubeconfigPath = path.join(dir, 'management.kubeconfig');
  fs.writeFileSync(
    kubeconfigPath,
    renderKubeconfig('management', {
      server: 'https://127.0.0.1:6443',
      caData: 'CA',
      token: 't',
    }),
  );
  const env = { ...process.env };
  afterEach(() => {
    process.env = { ...env };
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('takes infrared.managementCluster.kubeconfigPath, for the kube service and the registrar alike', () => {
    const made = createManagementClient(config({ kubeconfigPath }));
    expect('client' in made && made.client.server).toBe(
      'https://127.0.0.1:6443',
    );
    const kube = createInfraredKube(
      config({ kubeconfigPath }),
      mockServices.logger.mock(),
    );
    expect(kube.management?.server).toBe('https://127.0.0.1:6443');
  });

  it('says why there is no client: nothing configured outside a pod, or a kubeconfig that does not load', () => {
    delete process.env.KUBERNETES_SERVICE_HOST;
    delete process.env.KUBERNETES_SERVICE_PORT;
    expect(createManagementClient(config({}))).toEqual({
      unavailable:
        'no management cluster is configured: set infrared.managementCluster.kubeconfigPath, or run the backend in a pod of the management cluster',
    });
    const missing = path.join(dir, 'missing');
    const made = createManagementClient(config({ kubeconfigPath: missing }));
    expect(made).toEqual({
      unavailable: expect.stringContaining(
        `the management cluster's kubeconfig (${missing}) cannot be loaded: `,
      ),
    });
    expect(
      createInfraredKube(
        config({ kubeconfigPath: missing }),
        mockServices.logger.mock(),
      ),
    ).toEqual(made);
  });
});

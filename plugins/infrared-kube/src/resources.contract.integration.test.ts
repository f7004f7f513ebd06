/*
 * The ManagementApi contract against the real API server: a client on the devenv control plane's
 * management cluster (the Cluster CRD from deploy/crds, Secrets in a namespace of this run's own).
 * testUtils/memoryManagementApi.contract.test.ts runs the same cases against the in-memory fake.
 */
import path from 'node:path';
import {
  ensureNamespace,
  eventually,
  getTestControlPlane,
  installCrds,
  uniqueName,
} from '@internal/devenv';
import { KubeClient, kubeConfigFromText } from './client';
import { managementApi } from './resources';
import { describeManagementApiContract } from './__testUtils__/managementApiContract';

jest.setTimeout(120_000);

const CRDS = path.resolve(__dirname, '../../../deploy/crds/clusters.yaml');
const management = getTestControlPlane().cluster('management');
const kube = new KubeClient(kubeConfigFromText(management.kubeconfig));
const namespace = uniqueName('contract');

afterAll(async () => {
  await kube.core.deleteNamespace({ name: namespace }).catch(() => undefined);
});

describeManagementApiContract('the devenv API server', async () => {
  await installCrds(management, CRDS);
  await ensureNamespace(management, namespace);
  return {
    api: managementApi(kube),
    namespace,
    eventually: check => eventually(check, 60_000, 200),
  };
});

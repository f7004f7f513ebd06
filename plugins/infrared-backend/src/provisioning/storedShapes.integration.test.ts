/*
 * Clusters written raw on the real API server in an older shape (issue 22.3), read by the backend:
 * through its HTTP API (startTestBackend) and by the provisioning executor, as the backend's
 * ServiceAccount with only deploy/rbac.
 * - `old`: chart 0.1.0's shape, credentialsSecretRef {name, key} for a Secret in `infrared`, and the
 *   status.provision of a Job that ran before the upgrade: the API shows the Secret and that Job; the
 *   executor copies the Secret to infrared-tofu and makes the Job with it;
 * - `cloud`: Infrared's newer shape, cloudAccount only: shown as it is, and refused (InvalidSpec,
 *   naming credentialsSecretRef) rather than run with no credentials.
 */
import { mockServices } from '@backstage/backend-test-utils';
import {
  getTestControlPlane,
  KubeClient as AdminClient,
  uniqueName,
} from '@internal/devenv';
import {
  KubeProvisioningApi,
  managementApi,
  TOFU_JOB_SELECTOR,
} from '@infrared-clusters/infrared-kube';
import {
  startBackendOnControlPlane,
  type BackendOnControlPlane,
} from '../__testUtils__/backendOnControlPlane';
import { TOFU_NAMESPACE as NS } from './__testUtils__/tofuRbac';
import { ProvisioningReconciler } from './reconciler';

jest.setTimeout(180_000);

const cp = getTestControlPlane();
const management = cp.cluster('management');
const admin = AdminClient.fromKubeconfig(management.kubeconfig);
const CLUSTERS = '/apis/infrared.darkshift.io/v1alpha1/clusters';
const secrets = (ns: string) => `/api/v1/namespaces/${ns}/secrets`;
const old = uniqueName('stored-old');
const cloud = uniqueName('stored-cloud');

describe('Clusters stored in an older shape', () => {
  let backend: BackendOnControlPlane;
  let reconciler: ProvisioningReconciler;
  let jobs: KubeProvisioningApi;
  const get = (name: string) => backend.send('get', `/v1/clusters/${name}`);
  const ownJobs = (name: string) =>
    jobs.listJobs(
      NS,
      `${TOFU_JOB_SELECTOR},infrared.darkshift.io/cluster=${name}`,
    );

  beforeAll(async () => {
    backend = await startBackendOnControlPlane({ controlPlane: cp });
    const client = backend.client;
    jobs = new KubeProvisioningApi(client);
    reconciler = new ProvisioningReconciler({
      api: managementApi(client),
      kube: jobs,
      logger: mockServices.logger.mock(),
      context: { templates: [], kubeconfigOutput: 'kubeconfig' },
    });
    // written raw, as the old writers did (no API validation in between)
    const template = { module: 'aws/k3s-node', version: 'v0.2.3' };
    const written = await admin.must('POST', CLUSTERS, {
      apiVersion: 'infrared.darkshift.io/v1alpha1',
      kind: 'Cluster',
      metadata: { name: old },
      spec: {
        type: 'workload',
        template,
        provision: {
          credentialsSecretRef: { name: `${old}-aws`, key: 'credentials' },
          variables: { name: old },
        },
      },
    });
    await admin.must('PUT', `${CLUSTERS}/${old}/status`, {
      ...written.body,
      status: {
        provision: {
          action: 'plan',
          generation: 0,
          job: `tofu-${old}-0-plan`,
          phase: 'Succeeded',
        },
      },
    });
    await admin.must('POST', secrets('infrared'), {
      metadata: { name: `${old}-aws` },
      stringData: { AWS_ACCESS_KEY_ID: 'AKIAOLD', AWS_SECRET_ACCESS_KEY: 'x' },
    });
    await admin.must('POST', CLUSTERS, {
      apiVersion: 'infrared.darkshift.io/v1alpha1',
      kind: 'Cluster',
      metadata: { name: cloud },
      spec: {
        type: 'workload',
        template,
        provision: { action: 'plan', cloudAccount: 'aws-prod' },
      },
    });
  });

  afterAll(async () => {
    await backend?.stop();
    for (const name of [old, cloud]) {
      await admin.request('DELETE', `${CLUSTERS}/${name}`);
      for (const job of await ownJobs(name).catch(() => []))
        await admin.request(
          'DELETE',
          `/apis/batch/v1/namespaces/${NS}/jobs/${job.metadata.name}?propagationPolicy=Background`,
        );
    }
    for (const ns of ['infrared', NS])
      await admin.request('DELETE', `${secrets(ns)}/${old}-aws`);
  });

  it('the API shows each as stored', async () => {
    const oldView = await get(old);
    expect(oldView.status).toBe(200);
    expect(oldView.body.provision).toEqual({
      action: 'plan',
      variables: { name: old },
      credentialsSecret: `${old}-aws`,
      status: {
        action: 'plan',
        generation: 0,
        job: `tofu-${old}-0-plan`,
        phase: 'Succeeded',
      },
    });
    const cloudView = await get(cloud);
    expect(cloudView.status).toBe(200);
    expect(cloudView.body.provision).toEqual({ action: 'plan' });
  });

  it('the executor builds the old one with its Secret, and refuses cloudAccount alone', async () => {
    await reconciler.reconcile();
    const [job] = await ownJobs(old);
    expect(job.metadata.name).toBe(`tofu-${old}-1-plan`);
    const full = await admin.must(
      'GET',
      `/apis/batch/v1/namespaces/${NS}/jobs/${job.metadata.name}`,
    );
    expect(full.body.spec.template.spec.containers[0].envFrom).toEqual([
      { secretRef: { name: `${old}-aws` } },
    ]);
    const copied = await admin.must('GET', `${secrets(NS)}/${old}-aws`);
    expect(Object.keys(copied.body.data).sort()).toEqual([
      'AWS_ACCESS_KEY_ID',
      'AWS_SECRET_ACCESS_KEY',
    ]);

    expect(await ownJobs(cloud)).toEqual([]);
    const refused = await get(cloud);
    expect(refused.body.provision.status).toMatchObject({
      phase: 'Failed',
      message: `not started: provision.cloudAccount: "aws-prod" names an Infrared CloudAccount, which these plugins do not read: name the Secret holding the cloud credentials in provision.credentialsSecretRef`,
    });
    expect(
      refused.body.conditions.find((c: any) => c.type === 'Provisioned'),
    ).toMatchObject({ status: 'False', reason: 'InvalidSpec' });
  });
});

/*
 * The provisioning executor on the real control plane (packages/devenv), as the backend's
 * ServiceAccount with only deploy/rbac: it creates a Cluster's OpenTofu Job once across passes,
 * the job controller makes its Pod as infrared-tofu, and status.provision follows the Job. The
 * infrared-tofu ServiceAccount may touch Secrets and Leases in infrared and nothing else. (Running
 * the Job needs the node agent and tofu: provisioning.integration.test.ts.)
 */
import { mockServices } from '@backstage/backend-test-utils';
import {
  eventually,
  getTestControlPlane,
  KubeClient as AdminClient,
  uniqueName,
} from '@internal/devenv';
import type { ClusterResource } from '@infrared-clusters/plugin-infrared-common';
import {
  KubeClient,
  kubeConfigFromText,
  KubeProvisioningApi,
  managementApi,
  TOFU_JOB_SELECTOR,
} from '@infrared-clusters/plugin-infrared-node';
import { prepareManagementCluster } from '../clusters/__testUtils__/managementCluster';
import { applyTofuRbac } from './__testUtils__/tofuRbac';
import { ProvisioningReconciler } from './reconciler';

jest.setTimeout(120_000);

const cp = getTestControlPlane();
const management = cp.cluster('management');
const admin = AdminClient.fromKubeconfig(management.kubeconfig);

describe('the provisioning executor on the real API server', () => {
  let reconciler: ProvisioningReconciler;
  let jobs: KubeProvisioningApi;
  const name = uniqueName('tofu-x');

  beforeAll(async () => {
    const backendKubeconfig = await prepareManagementCluster(management);
    await applyTofuRbac(management);
    const client = new KubeClient(kubeConfigFromText(backendKubeconfig));
    jobs = new KubeProvisioningApi(client);
    reconciler = new ProvisioningReconciler({
      api: managementApi(client),
      kube: jobs,
      logger: mockServices.logger.mock(),
      context: { templates: [], kubeconfigOutput: 'kubeconfig' },
    });
    const cluster: ClusterResource = {
      apiVersion: 'infrared.darkshift.io/v1alpha1',
      kind: 'Cluster',
      metadata: { name },
      spec: {
        type: 'workload',
        template: { module: 'aws/k3s-node', version: 'v0.2.3' },
        provision: {
          variables: { name, zones: '["a"]' },
          credentialsSecretRef: { name: `${name}-aws` },
        },
      },
    };
    await admin.must(
      'POST',
      '/apis/infrared.darkshift.io/v1alpha1/clusters',
      cluster,
    );
  });

  afterAll(() =>
    admin.request(
      'DELETE',
      `/apis/infrared.darkshift.io/v1alpha1/clusters/${name}`,
    ),
  );

  const ownJobs = () =>
    jobs.listJobs(
      'infrared',
      `${TOFU_JOB_SELECTOR},infrared.darkshift.io/cluster=${name}`,
    );
  const cluster = async () =>
    (
      await admin.must(
        'GET',
        `/apis/infrared.darkshift.io/v1alpha1/clusters/${name}`,
      )
    ).body as ClusterResource;

  it('creates the Job once across passes; its Pod runs as infrared-tofu; status.provision follows', async () => {
    await reconciler.reconcile();
    await reconciler.reconcile();
    const made = await ownJobs();
    expect(made.map(j => j.metadata.name)).toEqual([`tofu-${name}-1-plan`]);
    const pod = await eventually(async () => {
      const pods = await jobs.listPods(
        'infrared',
        `batch.kubernetes.io/job-name=tofu-${name}-1-plan`,
      );
      return pods[0];
    }, 60_000);
    expect((pod as any).spec.serviceAccountName).toBe('infrared-tofu');
    expect((pod as any).spec.containers[0].envFrom).toEqual([
      { secretRef: { name: `${name}-aws` } },
    ]);
    await reconciler.reconcile();
    const status = (await cluster()).status!;
    expect(status.provision).toMatchObject({
      action: 'plan',
      generation: 1,
      job: `tofu-${name}-1-plan`,
      phase: 'Waiting',
      logs: `kubectl -n infrared logs job/tofu-${name}-1-plan`,
    });
    expect(
      status.conditions?.find(c => c.type === 'Provisioned'),
    ).toMatchObject({
      status: 'Unknown',
      reason: 'JobWaiting',
    });
    await reconciler.reconcile();
    expect(await ownJobs()).toHaveLength(1);
  });
});

describe('the infrared-tofu ServiceAccount (deploy/rbac/50-tofu.yaml)', () => {
  let tofu: AdminClient;
  beforeAll(async () => {
    await prepareManagementCluster(management);
    await applyTofuRbac(management);
    const token = await admin.must(
      'POST',
      '/api/v1/namespaces/infrared/serviceaccounts/infrared-tofu/token',
      {
        apiVersion: 'authentication.k8s.io/v1',
        kind: 'TokenRequest',
        spec: { expirationSeconds: 600 },
      },
    );
    tofu = AdminClient.fromAccess({
      server: admin.access.server,
      caData: admin.access.caData,
      token: token.body.status.token,
    });
  });

  it('may keep state Secrets and lock Leases in infrared', async () => {
    const secret = uniqueName('tfstate-default-cluster-t');
    expect(
      (
        await tofu.request('POST', '/api/v1/namespaces/infrared/secrets', {
          metadata: { name: secret },
          data: {},
        })
      ).status,
    ).toBe(201);
    expect(
      (
        await tofu.request(
          'GET',
          '/api/v1/namespaces/infrared/secrets?labelSelector=tfstate%3Dtrue',
        )
      ).status,
    ).toBe(200);
    expect(
      (
        await tofu.request(
          'DELETE',
          `/api/v1/namespaces/infrared/secrets/${secret}`,
        )
      ).status,
    ).toBe(200);
    const lease = `lock-${secret}`;
    expect(
      (
        await tofu.request(
          'POST',
          '/apis/coordination.k8s.io/v1/namespaces/infrared/leases',
          { metadata: { name: lease }, spec: {} },
        )
      ).status,
    ).toBe(201);
    expect(
      (
        await tofu.request(
          'DELETE',
          `/apis/coordination.k8s.io/v1/namespaces/infrared/leases/${lease}`,
        )
      ).status,
    ).toBe(200);
  });

  it.each([
    ['GET', '/api/v1/namespaces/argocd/secrets'],
    ['GET', '/apis/infrared.darkshift.io/v1alpha1/clusters'],
    ['GET', '/apis/batch/v1/namespaces/infrared/jobs'],
    ['GET', '/api/v1/namespaces/infrared/pods'],
    ['GET', '/api/v1/namespaces/infrared/configmaps'],
  ])('may not %s %s', async (method, url) => {
    expect((await tofu.request(method, url)).status).toBe(403);
  });
});

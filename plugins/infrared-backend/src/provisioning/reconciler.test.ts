import { mockServices } from '@backstage/backend-test-utils';
import type { ClusterResource } from '@infrared-clusters/plugin-infrared-common';
import { InMemoryManagementApi } from '@infrared-clusters/infrared-kube/testUtils';
import { MemoryProvisioningApi } from './__testUtils__/memoryProvisioningApi';
import { ProvisioningReconciler } from './reconciler';

function built(name: string): ClusterResource {
  return {
    apiVersion: 'infrared.darkshift.io/v1alpha1',
    kind: 'Cluster',
    metadata: { name },
    spec: {
      type: 'workload',
      template: { module: 'local/demo' },
      provision: { variables: { name } },
    },
  };
}

async function setUp(count: number) {
  const api = new InMemoryManagementApi();
  const kube = new MemoryProvisioningApi(api);
  for (let i = 0; i < count; i++) await api.clusters.create(built(`c${i}`));
  // a registered cluster without template is listed but not built
  await api.clusters.create({
    ...built('plain'),
    spec: { type: 'workload', connection: { inCluster: true } },
  });
  const reconciler = new ProvisioningReconciler({
    api,
    kube,
    logger: mockServices.logger.mock(),
    context: { templates: [], kubeconfigOutput: 'kubeconfig' },
  });
  const requests = async () => {
    api.counter.reset();
    kube.counter.reset();
    await reconciler.reconcile();
    return {
      ...api.counter.byVerb(),
      ...Object.fromEntries(
        Object.entries(kube.counter.byVerb()).map(([k, v]) => [`jobs ${k}`, v]),
      ),
    };
  };
  return { api, kube, reconciler, requests };
}

describe('ProvisioningReconciler: requests per pass', () => {
  it.each([1, 40])(
    '%i built clusters: one Job each, then a steady pass is three LISTs',
    async count => {
      const { kube, requests } = await setUp(count);
      const first = await requests();
      expect(kube.jobs.map(j => j.metadata.name).sort()).toEqual(
        Array.from({ length: count }, (_, i) => `tofu-c${i}-1-plan`).sort(),
      );
      // a Job's first pass also: GET its state here and in infrared (the upgrade), POST the empty
      // state Secret and Lease, its ServiceAccount, Role and RoleBinding, the Job; PATCH the Job in
      // as their owner: 11 requests per Job made, none in a steady pass
      expect(first).toEqual({
        LIST: 1,
        PUT: count,
        'jobs LIST': 2,
        'jobs GET': 2 * count,
        'jobs POST': 6 * count,
        'jobs PATCH': 3 * count,
      });
      // the Jobs run: one status write each
      for (const job of kube.jobs) job.status = { active: 1, ready: 1 };
      expect(await requests()).toEqual({ LIST: 1, PUT: count, 'jobs LIST': 2 });
      // nothing changed: LIST clusters, LIST jobs, LIST pods; no write, no GET per Cluster
      expect(await requests()).toEqual({ LIST: 1, 'jobs LIST': 2 });
      expect(kube.jobs).toHaveLength(count);
    },
  );

  it('a finished plan: its log read once, then steady again', async () => {
    const { kube, api, requests } = await setUp(2);
    await requests();
    kube.jobs[0].status = {
      conditions: [{ type: 'Complete', status: 'True' }],
    };
    kube.pods.push({
      metadata: {
        name: 'p0',
        labels: {
          'batch.kubernetes.io/job-name': kube.jobs[0].metadata.name,
          'app.kubernetes.io/name': 'infrared-tofu',
          'app.kubernetes.io/managed-by': 'infrared',
        },
      },
      status: { phase: 'Succeeded' },
    });
    kube.logs.set(
      'p0',
      'infrared-plan-summary: "[{\\"actions\\":[\\"create\\"],\\"address\\":\\"terraform_data.cluster\\"}]"\n',
    );
    expect(await requests()).toEqual({
      LIST: 1,
      PUT: 1,
      'jobs LIST': 2,
      'jobs GET': 1,
    });
    const name = kube.jobs[0].metadata.labels!['infrared.darkshift.io/cluster'];
    expect((await api.clusters.get(name))!.status?.provision).toMatchObject({
      phase: 'Succeeded',
      summary: { add: 1 },
    });
    expect(await requests()).toEqual({ LIST: 1, 'jobs LIST': 2 });
  });

  it('no built cluster: one LIST of Clusters only', async () => {
    const { requests } = await setUp(0);
    expect(await requests()).toEqual({ LIST: 1 });
  });
});

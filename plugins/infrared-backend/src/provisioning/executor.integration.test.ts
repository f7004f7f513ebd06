/*
 * The provisioning executor on the real control plane (packages/devenv), as the backend's
 * ServiceAccount with only deploy/rbac:
 * - it makes a Cluster's OpenTofu Job once across passes, in infrared-tofu (Pod Security
 *   restricted: the job controller's Pod passes it), as the Cluster's own ServiceAccount, whose
 *   Role the backend may grant (RBAC's escalation rule), after the empty state Secret and Lease;
 * - that identity (its token) reaches its own state Secret and Lease, and nothing else: not another
 *   Cluster's state, Lease or credentials, no list, no create, nothing in infrared;
 * - a Cluster built before (state, Lease and credentials in infrared) has its state moved before its
 *   first Job here, not while the old lock is held;
 * - removing a Cluster leaves its Job (and the identity the Job runs as) to the garbage collector
 *   untouched. (Running the Job needs the node agent and tofu: provisioning.integration.test.ts.)
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
} from '@infrared-clusters/infrared-kube';
import { gzipSync } from 'node:zlib';
import { prepareManagementCluster } from '../clusters/__testUtils__/managementCluster';
import { applyTofuRbac, TOFU_NAMESPACE as NS } from './__testUtils__/tofuRbac';
import { ProvisioningReconciler } from './reconciler';

jest.setTimeout(180_000);

const cp = getTestControlPlane();
const management = cp.cluster('management');
const admin = AdminClient.fromKubeconfig(management.kubeconfig);
const CLUSTERS = '/apis/infrared.darkshift.io/v1alpha1/clusters';
const secrets = (ns: string) => `/api/v1/namespaces/${ns}/secrets`;
const leases = (ns: string) =>
  `/apis/coordination.k8s.io/v1/namespaces/${ns}/leases`;

let reconciler: ProvisioningReconciler;
let jobs: KubeProvisioningApi;
const made: string[] = [];

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
});

afterAll(async () => {
  for (const name of made) await admin.request('DELETE', `${CLUSTERS}/${name}`);
});

async function createCluster(
  name: string,
  provision: ClusterResource['spec']['provision'] = {},
): Promise<ClusterResource> {
  made.push(name);
  const res = await admin.must('POST', CLUSTERS, {
    apiVersion: 'infrared.darkshift.io/v1alpha1',
    kind: 'Cluster',
    metadata: { name },
    spec: {
      type: 'workload',
      template: { module: 'aws/k3s-node', version: 'v0.2.3' },
      provision: { variables: { name, zones: '["a"]' }, ...provision },
    },
  });
  return res.body;
}

const getCluster = async (name: string) =>
  (await admin.must('GET', `${CLUSTERS}/${name}`)).body as ClusterResource;
const ownJobs = (name: string) =>
  jobs.listJobs(
    NS,
    `${TOFU_JOB_SELECTOR},infrared.darkshift.io/cluster=${name}`,
  );
const accessName = (c: ClusterResource) =>
  `tofu-${c.metadata.name}-${c.metadata.uid!.replace(/-/g, '').slice(0, 8)}`;

/** A client with a token of a ServiceAccount. */
async function as(namespace: string, sa: string): Promise<AdminClient> {
  const token = await admin.must(
    'POST',
    `/api/v1/namespaces/${namespace}/serviceaccounts/${sa}/token`,
    {
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenRequest',
      spec: { expirationSeconds: 600 },
    },
  );
  return AdminClient.fromAccess({
    server: admin.access.server,
    caData: admin.access.caData,
    token: token.body.status.token,
  });
}

describe('the provisioning executor on the real API server', () => {
  const name = uniqueName('tofu-x');
  let cluster: ClusterResource;

  beforeAll(async () => {
    cluster = await createCluster(name, {
      credentialsSecretRef: { name: `${name}-aws` },
    });
  });

  it("makes the state, the identity and the Job once across passes; its Pod runs in infrared-tofu (restricted) as the Cluster's own ServiceAccount; status.provision follows", async () => {
    await reconciler.reconcile();
    await reconciler.reconcile();
    const listed = await ownJobs(name);
    expect(listed.map(j => j.metadata.name)).toEqual([`tofu-${name}-1-plan`]);
    expect((listed[0].metadata as any).ownerReferences).toBeUndefined();
    // the job controller made its Pod: Pod Security restricted let it in
    const pod = await eventually(async () => {
      const pods = await jobs.listPods(
        NS,
        `batch.kubernetes.io/job-name=tofu-${name}-1-plan`,
      );
      return pods[0];
    }, 60_000);
    const sa = accessName(cluster);
    expect((pod as any).spec.serviceAccountName).toBe(sa);
    expect((pod as any).spec.containers[0].envFrom).toEqual([
      { secretRef: { name: `${name}-aws` } },
    ]);
    // the empty state Secret and the free Lease, with OpenTofu's labels, not owned by the Cluster
    const state = await admin.must(
      'GET',
      `${secrets(NS)}/tfstate-default-cluster-${name}`,
    );
    expect(state.body.data ?? {}).toEqual({});
    expect(state.body.metadata.labels).toMatchObject({
      tfstate: 'true',
      tfstateSecretSuffix: `cluster-${name}`,
      tfstateWorkspace: 'default',
    });
    expect(state.body.metadata.ownerReferences).toBeUndefined();
    const lease = await admin.must(
      'GET',
      `${leases(NS)}/lock-tfstate-default-cluster-${name}`,
    );
    expect(lease.body.spec.holderIdentity).toBeUndefined();
    // the ServiceAccount, Role and RoleBinding: owned by the Cluster and by the Job
    for (const path of [
      `/api/v1/namespaces/${NS}/serviceaccounts/${sa}`,
      `/apis/rbac.authorization.k8s.io/v1/namespaces/${NS}/roles/${sa}`,
      `/apis/rbac.authorization.k8s.io/v1/namespaces/${NS}/rolebindings/${sa}`,
    ]) {
      const owners = (await admin.must('GET', path)).body.metadata
        .ownerReferences;
      expect(owners.map((o: any) => `${o.kind}/${o.name}`).sort()).toEqual([
        `Cluster/${name}`,
        `Job/tofu-${name}-1-plan`,
      ]);
    }
    await reconciler.reconcile();
    const status = (await getCluster(name)).status!;
    expect(status.provision).toMatchObject({
      action: 'plan',
      generation: 1,
      job: `tofu-${name}-1-plan`,
      phase: 'Waiting',
      logs: `kubectl -n ${NS} logs job/tofu-${name}-1-plan`,
    });
    await reconciler.reconcile();
    expect(await ownJobs(name)).toHaveLength(1);
  });
});

describe("a Job's identity reaches only its own cluster", () => {
  const mine = uniqueName('tofu-a');
  const other = uniqueName('tofu-b');
  let tofu: AdminClient;

  beforeAll(async () => {
    const a = await createCluster(mine, {
      credentialsSecretRef: { name: `${mine}-aws` },
    });
    await createCluster(other, {
      credentialsSecretRef: { name: `${other}-aws` },
    });
    for (const n of [mine, other]) {
      await admin.must('POST', secrets(NS), {
        metadata: { name: `${n}-aws` },
        stringData: { AWS_SECRET_ACCESS_KEY: `key-of-${n}` },
      });
    }
    await admin.must('POST', secrets('infrared'), {
      metadata: { name: `cluster-${other}-kubeconfig` },
      stringData: { kubeconfig: 'apiVersion: v1\nkind: Config\n' },
    });
    await reconciler.reconcile();
    tofu = await as(NS, accessName(a));
  });

  afterAll(async () => {
    for (const n of [mine, other])
      await admin.request('DELETE', `${secrets(NS)}/${n}-aws`);
    await admin.request(
      'DELETE',
      `${secrets('infrared')}/cluster-${other}-kubeconfig`,
    );
  });

  it('its own state Secret and Lease: get and update (what OpenTofu does)', async () => {
    const state = await tofu.request(
      'GET',
      `${secrets(NS)}/tfstate-default-cluster-${mine}`,
    );
    expect(state.status).toBe(200);
    const written = await tofu.request(
      'PUT',
      `${secrets(NS)}/tfstate-default-cluster-${mine}`,
      {
        ...state.body,
        data: { tfstate: gzipSync('{}').toString('base64') },
      },
    );
    expect(written.status).toBe(200);
    const lease = await tofu.request(
      'GET',
      `${leases(NS)}/lock-tfstate-default-cluster-${mine}`,
    );
    expect(lease.status).toBe(200);
    const locked = await tofu.request(
      'PUT',
      `${leases(NS)}/lock-tfstate-default-cluster-${mine}`,
      { ...lease.body, spec: { holderIdentity: 'test-lock' } },
    );
    expect(locked.status).toBe(200);
    const unlocked = await tofu.request(
      'PUT',
      `${leases(NS)}/lock-tfstate-default-cluster-${mine}`,
      { ...locked.body, spec: {} },
    );
    expect(unlocked.status).toBe(200);
  });

  it.each([
    [
      "another Cluster's state Secret",
      () => `${secrets(NS)}/tfstate-default-cluster-${other}`,
    ],
    [
      "another Cluster's Lease",
      () => `${leases(NS)}/lock-tfstate-default-cluster-${other}`,
    ],
    [
      "another Cluster's credentials Secret",
      () => `${secrets(NS)}/${other}-aws`,
    ],
    // its own credentials reach it only as environment (envFrom, read by the kubelet)
    [
      'its own credentials Secret through the API',
      () => `${secrets(NS)}/${mine}-aws`,
    ],
    ['the Secrets of the namespace (list)', () => secrets(NS)],
    ['the Leases of the namespace (list)', () => leases(NS)],
    ['the Secrets of infrared (list)', () => secrets('infrared')],
    [
      'a kubeconfig Secret in infrared',
      () => `${secrets('infrared')}/cluster-${other}-kubeconfig`,
    ],
    ['the Secrets of argocd', () => secrets('argocd')],
    ['the Clusters', () => CLUSTERS],
    ['the Jobs', () => `/apis/batch/v1/namespaces/${NS}/jobs`],
    ['the Pods', () => `/api/v1/namespaces/${NS}/pods`],
  ])('GET %s: 403', async (_what, path) => {
    expect((await tofu.request('GET', path())).status).toBe(403);
  });

  it.each([
    ['a Secret', () => secrets(NS)],
    ['a Lease', () => leases(NS)],
  ])('may not create %s', async (_what, path) => {
    const res = await tofu.request('POST', path(), {
      metadata: { name: uniqueName('tfstate-default-cluster-z') },
      ...(path().includes('leases') ? { spec: {} } : {}),
    });
    expect(res.status).toBe(403);
  });

  it("may not update another Cluster's state", async () => {
    const state = await admin.must(
      'GET',
      `${secrets(NS)}/tfstate-default-cluster-${other}`,
    );
    const res = await tofu.request(
      'PUT',
      `${secrets(NS)}/tfstate-default-cluster-${other}`,
      { ...state.body, data: { tfstate: 'AAAA' } },
    );
    expect(res.status).toBe(403);
  });
});

describe('a Cluster built before the upgrade: its state moves to infrared-tofu before its first Job there', () => {
  const name = uniqueName('tofu-old');
  const state = gzipSync(
    JSON.stringify({ version: 4, serial: 7, lineage: 'x', outputs: {} }),
  ).toString('base64');
  const labels = {
    tfstate: 'true',
    tfstateSecretSuffix: `cluster-${name}`,
    tfstateWorkspace: 'default',
    'app.kubernetes.io/managed-by': 'opentf',
  };

  beforeAll(async () => {
    const c = await createCluster(name, {
      credentialsSecretRef: { name: `${name}-aws` },
    });
    // the old layout: a Job ran (status.provision), its state, a held Lease and the credentials
    // in infrared
    await admin.must('PUT', `${CLUSTERS}/${name}/status`, {
      ...c,
      status: {
        provision: {
          action: 'plan',
          generation: 0,
          job: `tofu-${name}-0-plan`,
          phase: 'Succeeded',
        },
      },
    });
    await admin.must('POST', secrets('infrared'), {
      metadata: { name: `tfstate-default-cluster-${name}`, labels },
      data: { tfstate: state },
    });
    await admin.must('POST', leases('infrared'), {
      metadata: { name: `lock-tfstate-default-cluster-${name}`, labels },
      spec: { holderIdentity: 'a-job-before-the-upgrade' },
    });
    await admin.must('POST', secrets('infrared'), {
      metadata: { name: `${name}-aws` },
      stringData: { AWS_SECRET_ACCESS_KEY: 'old-key' },
    });
  });

  afterAll(() => admin.request('DELETE', `${secrets('infrared')}/${name}-aws`));

  it('waits while the old lock is held: no Job, nothing moved, the condition says why', async () => {
    await reconciler.reconcile();
    expect(await ownJobs(name)).toEqual([]);
    expect(
      (await getCluster(name)).status?.conditions?.find(
        c => c.type === 'Provisioned',
      ),
    ).toMatchObject({
      status: 'Unknown',
      reason: 'JobWaiting',
      message: expect.stringMatching(
        /is locked by a Job made before the upgrade/,
      ),
    });
    expect(
      (
        await admin.request(
          'GET',
          `${secrets(NS)}/tfstate-default-cluster-${name}`,
        )
      ).status,
    ).toBe(404);
    expect(
      (
        await admin.request(
          'GET',
          `${secrets('infrared')}/tfstate-default-cluster-${name}`,
        )
      ).status,
    ).toBe(200);
  });

  it('once it is free: the same state in infrared-tofu, the old Secret and Lease gone, the credentials copied, then the Job', async () => {
    const lease = await admin.must(
      'GET',
      `${leases('infrared')}/lock-tfstate-default-cluster-${name}`,
    );
    await admin.must(
      'PUT',
      `${leases('infrared')}/lock-tfstate-default-cluster-${name}`,
      { ...lease.body, spec: {} },
    );
    await reconciler.reconcile();
    const moved = await admin.must(
      'GET',
      `${secrets(NS)}/tfstate-default-cluster-${name}`,
    );
    expect(moved.body.data).toEqual({ tfstate: state });
    expect(moved.body.metadata.labels).toMatchObject(labels);
    for (const gone of [
      `${secrets('infrared')}/tfstate-default-cluster-${name}`,
      `${leases('infrared')}/lock-tfstate-default-cluster-${name}`,
    ]) {
      expect((await admin.request('GET', gone)).status).toBe(404);
    }
    const credentials = await admin.must('GET', `${secrets(NS)}/${name}-aws`);
    expect(
      Buffer.from(
        credentials.body.data.AWS_SECRET_ACCESS_KEY,
        'base64',
      ).toString(),
    ).toBe('old-key');
    // the original stays: the backend never deletes a Secret it did not make
    expect(
      (await admin.request('GET', `${secrets('infrared')}/${name}-aws`)).status,
    ).toBe(200);
    expect((await ownJobs(name)).map(j => j.metadata.name)).toEqual([
      `tofu-${name}-1-plan`,
    ]);
    // a second pass moves nothing again
    await reconciler.reconcile();
    expect(
      (
        await admin.must(
          'GET',
          `${secrets(NS)}/tfstate-default-cluster-${name}`,
        )
      ).body.data,
    ).toEqual({ tfstate: state });
  });
});

describe('removing a Cluster never removes its Job', () => {
  const name = uniqueName('tofu-rm');

  it('the garbage collector deletes what only the Cluster owned; the Job and the identity it runs as stay', async () => {
    const cluster = await createCluster(name);
    await reconciler.reconcile();
    const [job] = await ownJobs(name);
    expect(job.metadata.name).toBe(`tofu-${name}-1-plan`);
    // a witness owned by the Cluster alone: once it is gone, the garbage collector has acted
    const witness = `${name}-witness`;
    await admin.must('POST', `/api/v1/namespaces/${NS}/configmaps`, {
      metadata: {
        name: witness,
        ownerReferences: [
          {
            apiVersion: 'infrared.darkshift.io/v1alpha1',
            kind: 'Cluster',
            name,
            uid: cluster.metadata.uid,
          },
        ],
      },
    });
    await admin.must('DELETE', `${CLUSTERS}/${name}`);
    await eventually(
      async () =>
        (
          await admin.request(
            'GET',
            `/api/v1/namespaces/${NS}/configmaps/${witness}`,
          )
        ).status === 404,
      90_000,
      500,
    );
    expect((await ownJobs(name)).map(j => j.metadata.uid)).toEqual([
      job.metadata.uid,
    ]);
    const sa = accessName(cluster);
    for (const path of [
      `/api/v1/namespaces/${NS}/serviceaccounts/${sa}`,
      `/apis/rbac.authorization.k8s.io/v1/namespaces/${NS}/roles/${sa}`,
      `/apis/rbac.authorization.k8s.io/v1/namespaces/${NS}/rolebindings/${sa}`,
      `${secrets(NS)}/tfstate-default-cluster-${name}`,
    ]) {
      expect((await admin.request('GET', path)).status).toBe(200);
    }
    await admin.request(
      'DELETE',
      `/apis/batch/v1/namespaces/${NS}/jobs/${job.metadata.name}?propagationPolicy=Background`,
    );
  });
});

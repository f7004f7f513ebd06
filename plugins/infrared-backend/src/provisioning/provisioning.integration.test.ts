/*
 * Clusters built with OpenTofu, for real: the backend's provisioning executor (as the deploy/rbac
 * ServiceAccount) on the devenv control plane, the job controller, a node agent that runs the
 * Job's Pod as a local process authenticated as the Cluster's own ServiceAccount (its Role: get and
 * update of its state Secret and Lease, nothing else: no list, no create), in namespace
 * infrared-tofu (Pod Security restricted), and a tofu built from the Go module. The modules are in
 * __testUtils__/modules (built-ins only: no provider download).
 */
import { mockServices } from '@backstage/backend-test-utils';
import {
  eventually,
  getTestControlPlane,
  KubeClient as AdminClient,
  startNodeAgent,
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
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { prepareManagementCluster } from '../clusters/__testUtils__/managementCluster';
import { applyTofuRbac, TOFU_NAMESPACE } from './__testUtils__/tofuRbac';
import { ProvisioningReconciler } from './reconciler';

// the first run builds tofu from Go modules (about 9 minutes cold on 2 cores)
jest.setTimeout(20 * 60_000);

const cp = getTestControlPlane();
const management = cp.cluster('management');
const admin = AdminClient.fromKubeconfig(management.kubeconfig);
const MODULES = path.resolve(__dirname, '__testUtils__/modules');
const CLUSTERS = '/apis/infrared.darkshift.io/v1alpha1/clusters';

const names = {
  ok: uniqueName('tofu-ok'),
  failing: uniqueName('tofu-bad'),
};

describe('clusters built with OpenTofu on the real control plane', () => {
  let reconciler: ProvisioningReconciler;
  let jobs: KubeProvisioningApi;
  let agent: Awaited<ReturnType<typeof startNodeAgent>>;
  const agentDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tofu-agent-'));
  const secretValue = `s3cr3t-${Math.random().toString(36).slice(2)}`;

  beforeAll(async () => {
    const backendKubeconfig = await prepareManagementCluster(management);
    await applyTofuRbac(management);
    agent = await startNodeAgent({
      cluster: management,
      nodeName: uniqueName('tofu-node'),
      dataDir: agentDir,
      // only this test's Jobs: the shared control plane runs other tests' Pods too
      selector: `app.kubernetes.io/name=infrared-tofu,infrared.darkshift.io/cluster in (${Object.values(
        names,
      ).join(',')})`,
      // NODE_AGENT_LOG=<file> keeps what the agent did, to debug a run
      log: process.env.NODE_AGENT_LOG
        ? m => fs.appendFileSync(process.env.NODE_AGENT_LOG!, `${m}\n`)
        : undefined,
    });
    const client = new KubeClient(kubeConfigFromText(backendKubeconfig));
    jobs = new KubeProvisioningApi(client);
    reconciler = new ProvisioningReconciler({
      api: managementApi(client),
      kube: jobs,
      logger: mockServices.logger.mock(),
      context: { templates: [], kubeconfigOutput: 'kubeconfig' },
    });
    await admin.must('POST', `/api/v1/namespaces/${TOFU_NAMESPACE}/secrets`, {
      metadata: { name: `${names.failing}-creds`, namespace: TOFU_NAMESPACE },
      stringData: { TEST_SECRET_KEY: secretValue },
    });
  });

  afterAll(async () => {
    await agent?.stop();
    fs.rmSync(agentDir, { recursive: true, force: true });
    for (const name of Object.values(names)) {
      await admin.request('DELETE', `${CLUSTERS}/${name}`);
    }
    await admin.request(
      'DELETE',
      `/api/v1/namespaces/${TOFU_NAMESPACE}/secrets/${names.failing}-creds`,
    );
  });

  const create = (
    name: string,
    provision: ClusterResource['spec']['provision'],
  ) =>
    admin.must('POST', CLUSTERS, {
      apiVersion: 'infrared.darkshift.io/v1alpha1',
      kind: 'Cluster',
      metadata: { name },
      spec: {
        type: 'workload',
        template: { module: 'test/module' },
        provision,
      },
    });
  const cluster = async (name: string) =>
    (await admin.must('GET', `${CLUSTERS}/${name}`)).body as ClusterResource;
  const jobsOf = async (name: string) =>
    (
      await jobs.listJobs(
        TOFU_NAMESPACE,
        `${TOFU_JOB_SELECTOR},infrared.darkshift.io/cluster=${name}`,
      )
    )
      .map(j => j.metadata.name)
      .sort();
  /** Passes of the executor until the Cluster's last Job has finished. */
  const finished = (name: string, job: string) =>
    eventually(
      async () => {
        await reconciler.reconcile();
        const c = await cluster(name);
        const p = c.status?.provision;
        return (
          p?.job === job &&
          (p.phase === 'Succeeded' || p.phase === 'Failed') &&
          c
        );
      },
      300_000,
      1000,
    );

  it('plan: Succeeded with its summary; apply: a new generation and Job, the state Secret and a released Lease', async () => {
    const name = names.ok;
    await create(name, {
      source: path.join(MODULES, 'ok'),
      variables: { name, zones: '["a","b"]' },
    });
    let c = await finished(name, `tofu-${name}-1-plan`);
    expect(c.status?.provision).toMatchObject({
      action: 'plan',
      generation: 1,
      phase: 'Succeeded',
      message: 'plan: 3 to add, 0 to change, 0 to destroy',
      summary: {
        add: 3,
        change: 0,
        destroy: 0,
        resources: [
          { address: 'terraform_data.cluster', actions: ['create'] },
          { address: 'terraform_data.node[0]', actions: ['create'] },
          { address: 'terraform_data.node[1]', actions: ['create'] },
        ],
      },
    });
    expect(
      c.status?.conditions?.find(x => x.type === 'Provisioned'),
    ).toMatchObject({ status: 'False', reason: 'Planned' });
    // kubectl logs job/... through the API server and the node agent's kubelet endpoint
    const pods = await jobs.listPods(
      TOFU_NAMESPACE,
      `batch.kubernetes.io/job-name=tofu-${name}-1-plan`,
    );
    const log = await jobs.readLog(
      TOFU_NAMESPACE,
      pods[0].metadata.name,
      'tofu',
    );
    // no backend init (it would LIST every Secret of the namespace): the recorded backend is used
    expect(log).not.toMatch(/Initializing the backend/);
    expect(log).not.toMatch(/forbidden/i);
    expect(log).toMatch(/Plan: 3 to add, 0 to change, 0 to destroy/);
    // the node agent gave the Pod the token of ITS ServiceAccount (the Cluster's own)
    const uid = (await cluster(name)).metadata.uid!;
    const token = fs.readFileSync(
      path.join(
        agentDir,
        'pods',
        (pods[0].metadata as any).uid,
        'serviceaccount',
        'token',
      ),
      'utf8',
    );
    const claims = JSON.parse(
      Buffer.from(token.split('.')[1], 'base64url').toString('utf8'),
    );
    expect(claims.sub).toBe(
      `system:serviceaccount:${TOFU_NAMESPACE}:tofu-${name}-${uid
        .replace(/-/g, '')
        .slice(0, 8)}`,
    );
    // two more passes: still one Job
    await reconciler.reconcile();
    await reconciler.reconcile();
    expect(await jobsOf(name)).toEqual([`tofu-${name}-1-plan`]);

    await admin.must(
      'PATCH',
      `${CLUSTERS}/${name}`,
      { spec: { provision: { action: 'apply' } } },
      [],
      'application/merge-patch+json',
    );
    c = await finished(name, `tofu-${name}-2-apply`);
    expect(c.status?.provision).toMatchObject({
      action: 'apply',
      generation: 2,
      phase: 'Succeeded',
    });
    expect(await jobsOf(name)).toEqual(
      [`tofu-${name}-1-plan`, `tofu-${name}-2-apply`].sort(),
    );
    const state = await admin.must(
      'GET',
      `/api/v1/namespaces/${TOFU_NAMESPACE}/secrets/tfstate-default-cluster-${name}`,
    );
    expect(state.body.metadata.labels).toMatchObject({
      tfstate: 'true',
      tfstateSecretSuffix: `cluster-${name}`,
    });
    const lease = await admin.must(
      'GET',
      `/apis/coordination.k8s.io/v1/namespaces/${TOFU_NAMESPACE}/leases/lock-tfstate-default-cluster-${name}`,
    );
    expect(lease.body.spec.holderIdentity ?? '').toBe('');

    // auto-registration: the output kubeconfig, read from the state Secret
    c = await eventually(
      async () => {
        await reconciler.reconcile();
        const now = await cluster(name);
        return now.spec.connection?.kubeconfigSecretRef && now;
      },
      60_000,
      500,
    );
    expect(c.spec.connection).toEqual({
      kubeconfigSecretRef: {
        name: `cluster-${name}-kubeconfig`,
        key: 'kubeconfig',
      },
    });
    const kubeconfig = await admin.must(
      'GET',
      `/api/v1/namespaces/infrared/secrets/cluster-${name}-kubeconfig`,
    );
    expect(
      Buffer.from(kubeconfig.body.data.kubeconfig, 'base64').toString(),
    ).toBe(`apiVersion: v1\nkind: Config\nclusters: []\n# ${name}\n`);
    expect(kubeconfig.body.metadata.ownerReferences[0]).toMatchObject({
      kind: 'Cluster',
      name,
    });
    // the connection is a new generation, but no new run
    await reconciler.reconcile();
    await reconciler.reconcile();
    expect(await jobsOf(name)).toEqual(
      [`tofu-${name}-1-plan`, `tofu-${name}-2-apply`].sort(),
    );
    expect(
      (await cluster(name)).status?.conditions?.find(
        x => x.type === 'Provisioned',
      ),
    ).toMatchObject({ status: 'True', reason: 'Applied' });
  });

  it('a failing module: Failed with its error; no credential value in status, events or the log the API shows', async () => {
    const name = names.failing;
    await create(name, {
      action: 'apply',
      source: path.join(MODULES, 'failing'),
      variables: { name },
      credentialsSecretRef: { name: `${name}-creds` },
    });
    const c = await finished(name, `tofu-${name}-1-apply`);
    expect(c.status?.provision).toMatchObject({
      phase: 'Failed',
      generation: 1,
    });
    expect(c.status?.provision?.message).toMatch(
      /^exit code 1: Error: local-exec provisioner error/,
    );
    expect(c.status?.provision?.message).toMatch(
      /Output: using key\s+\*\*\*\s+the module failed on purpose/,
    );
    expect(
      c.status?.conditions?.find(x => x.type === 'Provisioned'),
    ).toMatchObject({ status: 'False', reason: 'ApplyFailed' });
    expect(JSON.stringify(c)).not.toContain(secretValue);
    const events = await admin.must(
      'GET',
      `/api/v1/namespaces/${TOFU_NAMESPACE}/events`,
    );
    expect(JSON.stringify(events.body)).not.toContain(secretValue);
    // never retried
    await reconciler.reconcile();
    expect(await jobsOf(name)).toEqual([`tofu-${name}-1-apply`]);
  });
});

/*
 * The OpenTofu Job as the real API server takes it: created with server-side dry run (every
 * admission and validation step, nothing stored), for each action, with and without credentials,
 * in the Jobs' namespace labelled Pod Security `restricted` as the chart makes it; its Pod created
 * there (dry run) passes `restricted` enforcement. And the Cluster CRD's provisioning rules as the
 * API server applies them.
 */
import path from 'node:path';
import {
  ensureNamespace,
  getTestControlPlane,
  installCrds,
  uniqueName,
} from '@internal/devenv';
import type { ClusterResource } from '@infrared-clusters/plugin-infrared-common';
import { KubeClient, kubeConfigFromText } from '../client';
import { KubeProvisioningApi } from '../provisioning';
import { KubeClusterApi } from '../resources';
import { KubeApiError } from '../errors';
import { tofuJob, TOFU_JOB_SELECTOR } from './job';

jest.setTimeout(120_000);

const cp = getTestControlPlane();
const management = cp.cluster('management');
const kube = new KubeClient(kubeConfigFromText(management.kubeconfig));
const jobs = new KubeProvisioningApi(kube);
const clusters = new KubeClusterApi(kube);

const NS = 'infrared-tofu';

/** The Jobs' namespace as the chart makes it: Pod Security `restricted`, enforced. */
async function restrictedNamespace(name: string) {
  const labels = {
    'pod-security.kubernetes.io/enforce': 'restricted',
    'pod-security.kubernetes.io/enforce-version': 'latest',
  };
  const res = await kube.request('POST', '/api/v1/namespaces', {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name, labels },
  });
  if (res.status === 409) {
    await kube.must(
      'PATCH',
      `/api/v1/namespaces/${name}`,
      { metadata: { labels } },
      [],
      'application/merge-patch+json',
    );
  } else if (res.status !== 201) {
    throw new Error(`namespace ${name}: ${res.status}`);
  }
}

/** Creates the Job's Pod (its template) by dry run in a namespace: the status and message. */
async function dryRunPod(job: ReturnType<typeof tofuJob>, namespace = NS) {
  const res = await kube.request(
    'POST',
    `/api/v1/namespaces/${namespace}/pods?dryRun=All`,
    {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { generateName: 'tofu-pss-', namespace },
      spec: job.spec.template.spec,
    },
  );
  return { status: res.status, message: String(res.body?.message ?? '') };
}

const CRDS = path.resolve(__dirname, '../../../../deploy/crds/clusters.yaml');

function clusterBody(
  name: string,
  spec: Partial<ClusterResource['spec']>,
): ClusterResource {
  return {
    apiVersion: 'infrared.darkshift.io/v1alpha1',
    kind: 'Cluster',
    metadata: { name },
    spec: {
      type: 'workload',
      template: { module: 'aws/k3s-node', version: 'v0.2.3' },
      ...spec,
    },
  };
}

beforeAll(async () => {
  await installCrds(management, CRDS);
  await ensureNamespace(management, 'infrared');
  await restrictedNamespace(NS);
});

describe('the OpenTofu Job on the real API server (dry run)', () => {
  let cluster: ClusterResource;
  beforeAll(async () => {
    cluster = await clusters.create(
      clusterBody(uniqueName('tofu-dry'), {
        provision: {
          variables: { region: 'us-east-1', zones: '["a","b"]' },
          credentialsSecretRef: { name: 'edge-aws' },
        },
      }),
    );
  });
  afterAll(() => clusters.delete(cluster.metadata.name).catch(() => undefined));

  it.each(['plan', 'apply', 'destroy'] as const)(
    'a %s Job is valid and nothing is stored',
    async action => {
      const job = tofuJob({
        ...cluster,
        spec: {
          ...cluster.spec,
          provision: { ...cluster.spec.provision, action },
        },
      });
      const created: any = await jobs.createJob(job, { dryRun: true });
      expect(created.metadata.name).toBe(
        `tofu-${cluster.metadata.name}-1-${action}`,
      );
      expect(created.spec.backoffLimit).toBe(0);
      expect(created.spec.ttlSecondsAfterFinished).toBe(604800);
      expect(created.metadata.namespace).toBe(NS);
      expect(created.spec.template.spec.serviceAccountName).toBe(
        `tofu-${cluster.metadata.name}-${cluster.metadata
          .uid!.replace(/-/g, '')
          .slice(0, 8)}`,
      );
      expect(created.spec.template.spec.containers[0].envFrom).toEqual([
        { secretRef: { name: 'edge-aws' } },
      ]);
      // not owned by the Cluster: removing it never deletes a running build
      expect(created.metadata.ownerReferences).toBeUndefined();
      // its Pod passes Pod Security `restricted`, enforced in the namespace
      expect(await dryRunPod(job)).toEqual({ status: 201, message: '' });
      const stored = await jobs.listJobs(
        NS,
        `${TOFU_JOB_SELECTOR},infrared.darkshift.io/cluster=${cluster.metadata.name}`,
      );
      expect(stored).toEqual([]);
    },
  );

  it('the namespace enforces restricted: the same Pod without its security context is refused', async () => {
    const job = tofuJob(cluster);
    const pod = job.spec.template.spec as any;
    delete pod.securityContext;
    delete pod.containers[0].securityContext;
    const refused = await dryRunPod(job);
    expect(refused.status).toBe(403);
    expect(refused.message).toMatch(/violates PodSecurity "restricted/);
    expect(refused.message).toMatch(/allowPrivilegeEscalation != false/);
  });

  it('the longest cluster name at a seven-digit generation still makes a valid Job', async () => {
    const name = `a${'b'.repeat(40)}c`;
    const job = tofuJob({
      ...cluster,
      metadata: { ...cluster.metadata, name, generation: 9_999_999 },
      spec: { ...cluster.spec, provision: { action: 'destroy' } },
    });
    const created: any = await jobs.createJob(job, { dryRun: true });
    expect(created.metadata.name).toHaveLength(63);
  });
});

describe('the Cluster CRD refuses what provisioning refuses', () => {
  const dryRun = (body: ClusterResource) =>
    kube.custom.createClusterCustomObject({
      group: 'infrared.darkshift.io',
      version: 'v1alpha1',
      plural: 'clusters',
      body,
      dryRun: 'All',
    });
  const refusal = async (body: ClusterResource) => {
    try {
      await dryRun(body);
      return 'accepted';
    } catch (e: any) {
      return String(e.body ?? e.message);
    }
  };

  it.each<[string, Partial<ClusterResource['spec']>, RegExp]>([
    [
      'provision on the management cluster',
      { type: 'management', provision: {} },
      /only for workload clusters/,
    ],
    [
      'provision without a template',
      { template: undefined, provision: {} },
      /spec.provision needs spec.template/,
    ],
    [
      'an unknown action',
      { provision: { action: 'deploy' as any } },
      /spec.provision.action: Unsupported value/,
    ],
    [
      'a credentials Secret name that is not a name',
      { provision: { credentialsSecretRef: { name: 'AWS Keys' } } },
      /credentialsSecretRef.name/,
    ],
    [
      'a variable that is not a string',
      { provision: { variables: { nodes: 3 as any } } },
      /variables.nodes/,
    ],
  ])('%s', async (_what, spec, message) => {
    expect(await refusal(clusterBody(uniqueName('tofu-crd'), spec))).toMatch(
      message,
    );
  });

  it('destroy is an action', async () => {
    expect(
      await refusal(
        clusterBody(uniqueName('tofu-crd'), {
          provision: { action: 'destroy' },
        }),
      ),
    ).toBe('accepted');
  });
});

it('KubeApiError names the request', async () => {
  const job = tofuJob(clusterBody('x', {}));
  job.metadata.namespace = 'no-such-namespace-for-tofu';
  await expect(jobs.createJob(job, { dryRun: true })).rejects.toBeInstanceOf(
    KubeApiError,
  );
});

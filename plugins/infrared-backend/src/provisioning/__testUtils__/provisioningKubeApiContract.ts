/* eslint-disable jest/no-export -- a describe factory: two test files run its cases, one on the fake, one on the real API server */
import type {
  ClusterResource,
  ClusterSpec,
} from '@infrared-clusters/plugin-infrared-common';
import {
  TOFU_CONTAINER_SECURITY_CONTEXT,
  TOFU_POD_SECURITY_CONTEXT,
  type ProvisioningKubeApi,
  type ProvisioningObject,
  type TofuJob,
} from '@infrared-clusters/infrared-kube';
import { uniqueName } from '@internal/devenv';
import {
  kubeFailure as failure,
  sortedNames as names,
} from '../../__testUtils__/kubeFailure';

/** What a contract run needs of the API under test, and how to store what it only reads. */
export interface ProvisioningKubeApiContractSubject {
  api: ProvisioningKubeApi;
  /** Makes these namespaces (the real API server needs them before anything is stored in them). */
  createNamespaces(names: string[]): Promise<void>;
  /** Stores a Pod with these labels, as the job controller would. */
  createPod(
    namespace: string,
    name: string,
    labels: Record<string, string>,
  ): Promise<void>;
  /** Stores a Cluster with this spec, as kubectl would. */
  createCluster(name: string, spec: ClusterSpec): Promise<void>;
  /** The Cluster as stored; undefined when there is none. */
  getCluster(name: string): Promise<ClusterResource | undefined>;
  /** Removes what the run made. */
  cleanUp?(): Promise<void>;
}

function job(
  namespace: string,
  name: string,
  labels: Record<string, string>,
): TofuJob {
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name, namespace, labels },
    spec: {
      backoffLimit: 0,
      ttlSecondsAfterFinished: 3600,
      template: {
        // not the labels the contract lists Pods by: the job controller's Pods never match
        metadata: { labels: { 'contract-job-pod': name } },
        spec: {
          serviceAccountName: 'default',
          restartPolicy: 'Never',
          securityContext: TOFU_POD_SECURITY_CONTEXT,
          containers: [
            {
              name: 'tofu',
              image: 'registry.invalid/tofu:0',
              command: ['true'],
              env: [],
              terminationMessagePolicy: 'FallbackToLogsOnError',
              securityContext: TOFU_CONTAINER_SECURITY_CONTEXT,
            },
          ],
        },
      },
    },
  };
}

const secret = (
  namespace: string,
  name: string,
  value: string,
): ProvisioningObject => ({
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name, namespace },
  type: 'Opaque',
  data: { key: Buffer.from(value).toString('base64') },
});

/**
 * The cases a ProvisioningKubeApi must pass the way the real API server does: Jobs and Pods listed
 * in one namespace by label selector, a Job's 409 AlreadyExists and its server-side dry run, a
 * missing Pod's log as undefined, a Cluster's spec changed by a JSON merge patch (nested objects
 * merged, null removes a field, the generation bumped, 409 on a stale resourceVersion, 404 on a
 * missing Cluster), and the objects provisioning makes (create once, get, delete under a uid
 * precondition, owners added by uid). The same suite runs against `MemoryProvisioningApi` (the
 * route and plugin tests' fake) and `KubeProvisioningApi` on the devenv control plane, so that the
 * fake cannot drift from the API server.
 */
export function describeProvisioningKubeApiContract(
  target: string,
  setUp: () => Promise<ProvisioningKubeApiContractSubject>,
): void {
  describe(`ProvisioningKubeApi contract: ${target}`, () => {
    let subject: ProvisioningKubeApiContractSubject;
    let api: ProvisioningKubeApi;
    const run = uniqueName('vc');
    const nsA = `${run}-a`;
    const nsB = `${run}-b`;
    const cluster = `${run}-cluster`;

    beforeAll(async () => {
      subject = await setUp();
      api = subject.api;
      await subject.createNamespaces([nsA, nsB]);
    });

    afterAll(async () => {
      await subject.cleanUp?.();
    });

    it('createJob: lists it in its namespace by label selector; 409 AlreadyExists when the name is taken', async () => {
      const created = await api.createJob(
        job(nsA, 'plan-1', { run, action: 'plan' }),
      );
      expect(created.metadata).toMatchObject({
        name: 'plan-1',
        namespace: nsA,
      });
      expect(created.metadata.uid).toBeTruthy();
      await api.createJob(job(nsA, 'apply-1', { run, action: 'apply' }));
      await api.createJob(job(nsB, 'plan-1', { run, action: 'plan' }));
      expect(names(await api.listJobs(nsA, `run=${run}`))).toEqual([
        'apply-1',
        'plan-1',
      ]);
      expect(names(await api.listJobs(nsA, `run=${run},action=plan`))).toEqual([
        'plan-1',
      ]);
      expect(
        (await api.listJobs(nsB, `run=${run}`)).map(j => j.metadata.namespace),
      ).toEqual([nsB]);
      expect(await failure(api.createJob(job(nsA, 'plan-1', { run })))).toEqual(
        { code: 409, reason: 'AlreadyExists' },
      );
    });

    it('createJob as a dry run: answers the Job, stores nothing', async () => {
      const dry = await api.createJob(job(nsA, 'dry-1', { run }), {
        dryRun: true,
      });
      expect(dry.metadata.name).toBe('dry-1');
      expect(names(await api.listJobs(nsA, `run=${run}`))).not.toContain(
        'dry-1',
      );
    });

    it('listPods: in one namespace, by label selector', async () => {
      await subject.createPod(nsA, 'pod-1', { 'contract-pod': run, n: '1' });
      await subject.createPod(nsA, 'pod-2', { 'contract-pod': run });
      await subject.createPod(nsB, 'pod-3', { 'contract-pod': run });
      expect(names(await api.listPods(nsA, `contract-pod=${run}`))).toEqual([
        'pod-1',
        'pod-2',
      ]);
      expect(names(await api.listPods(nsA, `contract-pod=${run},n`))).toEqual([
        'pod-1',
      ]);
      expect(names(await api.listPods(nsB, `contract-pod=${run}`))).toEqual([
        'pod-3',
      ]);
    });

    it('readLog: undefined for a Pod that is gone', async () => {
      expect(await api.readLog(nsA, 'absent-pod', 'tofu')).toBeUndefined();
    });

    it('patchClusterSpec: a JSON merge patch (nested objects merged, null removes a field), the generation bumped', async () => {
      await subject.createCluster(cluster, {
        type: 'workload',
        provider: 'local',
        region: 'eu-1',
        template: { module: 'local/demo', version: 'v1' },
        provision: { variables: { a: '1' } },
      } as ClusterSpec);
      const before = (await subject.getCluster(cluster))!;
      const after = await api.patchClusterSpec(cluster, {
        template: { version: 'v2' },
        provision: { variables: { b: '2' } },
        region: null,
      });
      expect(after.spec.template).toEqual({
        module: 'local/demo',
        version: 'v2',
      });
      expect(after.spec.provision?.variables).toEqual({ a: '1', b: '2' });
      expect(after.spec).not.toHaveProperty('region');
      expect(after.metadata.generation).toBe(
        (before.metadata.generation ?? 1) + 1,
      );
      expect(after.metadata.resourceVersion).not.toBe(
        before.metadata.resourceVersion,
      );
      expect(await subject.getCluster(cluster)).toEqual(after);
    });

    it('patchClusterSpec: 409 when the resourceVersion is stale, 404 when there is no such Cluster', async () => {
      const current = (await subject.getCluster(cluster))!;
      await api.patchClusterSpec(
        cluster,
        { region: 'eu-2' },
        current.metadata.resourceVersion,
      );
      expect(
        await failure(
          api.patchClusterSpec(
            cluster,
            { region: 'eu-3' },
            current.metadata.resourceVersion,
          ),
        ),
      ).toEqual({ code: 409, reason: 'Conflict' });
      expect((await subject.getCluster(cluster))!.spec.region).toBe('eu-2');
      expect(
        (await failure(api.patchClusterSpec(`${cluster}-absent`, {}))).code,
      ).toBe(404);
    });

    it('createObject: true once, false when the name is taken (left as it was); a dry run stores nothing', async () => {
      expect(await api.createObject(secret(nsA, 'state', 'one'))).toBe(true);
      expect(await api.createObject(secret(nsA, 'state', 'two'))).toBe(false);
      const stored = await api.getObject('v1', 'Secret', nsA, 'state');
      expect(stored?.data).toEqual(secret(nsA, 'state', 'one').data);
      expect(stored?.metadata.uid).toBeTruthy();
      expect(
        await api.createObject(secret(nsA, 'dry', 'x'), { dryRun: true }),
      ).toBe(true);
      expect(await api.getObject('v1', 'Secret', nsA, 'dry')).toBeUndefined();
      expect(await api.getObject('v1', 'Secret', nsB, 'state')).toBeUndefined();
    });

    it('deleteObject: only while it has the uid given (409 otherwise, kept); false when it is gone', async () => {
      await api.createObject(secret(nsA, 'lock', 'x'));
      const stored = (await api.getObject('v1', 'Secret', nsA, 'lock'))!;
      const stale = {
        ...stored,
        metadata: {
          ...stored.metadata,
          uid: '00000000-0000-0000-0000-000000000000',
        },
      };
      expect((await failure(api.deleteObject(stale))).code).toBe(409);
      expect(await api.getObject('v1', 'Secret', nsA, 'lock')).toBeDefined();
      expect(await api.deleteObject(stored)).toBe(true);
      expect(await api.getObject('v1', 'Secret', nsA, 'lock')).toBeUndefined();
      expect(await api.deleteObject(stored)).toBe(false);
    });

    it('addOwner: adds an owner by uid, keeps the others, never twice; 404 when there is no such object', async () => {
      await api.createObject(secret(nsB, 'owner-1', 'o'));
      await api.createObject(secret(nsB, 'owner-2', 'o'));
      await api.createObject(secret(nsB, 'owned', 'x'));
      const ref = async (name: string) => {
        const owner = (await api.getObject('v1', 'Secret', nsB, name))!;
        return {
          apiVersion: 'v1',
          kind: 'Secret',
          name,
          uid: owner.metadata.uid!,
        };
      };
      const owned = secret(nsB, 'owned', 'x');
      await api.addOwner(owned, await ref('owner-1'));
      await api.addOwner(owned, await ref('owner-2'));
      await api.addOwner(owned, await ref('owner-1'));
      const stored = await api.getObject('v1', 'Secret', nsB, 'owned');
      // the order is not kept: a strategic merge by uid moves the one patched again first
      const byName = (a: { name: string }, b: { name: string }) =>
        a.name.localeCompare(b.name);
      expect(
        [...(stored?.metadata.ownerReferences ?? [])].sort(byName),
      ).toEqual([await ref('owner-1'), await ref('owner-2')]);
      expect(
        (
          await failure(
            api.addOwner(secret(nsB, 'absent', 'x'), await ref('owner-1')),
          )
        ).code,
      ).toBe(404);
    });

    it('counts one request for each call', async () => {
      const counted = async (call: () => Promise<unknown>) => {
        const before = api.counter.total;
        await call();
        return api.counter.total - before;
      };
      expect(await counted(() => api.listJobs(nsA, `run=${run}`))).toBe(1);
      expect(await counted(() => api.listPods(nsA, `run=${run}`))).toBe(1);
      expect(
        await counted(() => api.getObject('v1', 'Secret', nsA, 'state')),
      ).toBe(1);
    });
  });
}

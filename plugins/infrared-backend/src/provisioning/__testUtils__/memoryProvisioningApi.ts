import type {
  ClusterResource,
  OwnerReference,
} from '@infrared-clusters/plugin-infrared-common';
import { matchesLabelSelector } from '@infrared-clusters/infrared-kube/testUtils';
import {
  KubeApiError,
  RequestCounter,
  type ObservedJob,
  type ObservedPod,
  type ProvisioningKubeApi,
  type ProvisioningObject,
  type TofuJob,
} from '@infrared-clusters/infrared-kube';

/** In `namespace`; an object pushed without one (a test's) stands in every namespace. */
const inNamespace = (
  metadata: { namespace?: string } | object,
  namespace: string,
) => {
  const own = (metadata as { namespace?: string }).namespace;
  return own === undefined || own === namespace;
};

/** RFC 7386, as the API server applies a JSON merge patch: objects merged, null removes a field. */
function mergePatch(target: unknown, patch: unknown): unknown {
  if (!patch || typeof patch !== 'object' || Array.isArray(patch)) {
    return structuredClone(patch);
  }
  const merged: Record<string, unknown> =
    target && typeof target === 'object' && !Array.isArray(target)
      ? { ...(target as Record<string, unknown>) }
      : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete merged[key];
    else if (value !== undefined) merged[key] = mergePatch(merged[key], value);
  }
  return merged;
}

/** Where the Cluster objects live (InMemoryManagementApi's store). */
export interface ClusterStore {
  clusterStore: Map<string, ClusterResource>;
}

/**
 * Jobs, Pods and logs in memory, for router and plugin tests; spec patches go to the in-memory
 * management API's Clusters (generation bumped as the API server does for a spec change). The
 * executor itself is tested on the real control plane.
 */
export class MemoryProvisioningApi implements ProvisioningKubeApi {
  readonly counter = new RequestCounter();
  readonly jobs: ObservedJob[] = [];
  readonly pods: ObservedPod[] = [];
  readonly logs = new Map<string, string>();
  /** ServiceAccounts, Roles, RoleBindings, Secrets and Leases by `<kind>/<namespace>/<name>`. */
  readonly objects = new Map<string, ProvisioningObject>();
  private version = 1000;

  constructor(private readonly store: ClusterStore) {}

  async listJobs(namespace: string, labelSelector: string) {
    this.counter.count('LIST');
    return this.jobs
      .filter(j => inNamespace(j.metadata, namespace))
      .filter(j => matchesLabelSelector(j.metadata.labels ?? {}, labelSelector))
      .map(j => structuredClone(j));
  }

  async listPods(namespace: string, labelSelector: string) {
    this.counter.count('LIST');
    return this.pods
      .filter(p => inNamespace(p.metadata, namespace))
      .filter(p => matchesLabelSelector(p.metadata.labels ?? {}, labelSelector))
      .map(p => structuredClone(p));
  }

  async createJob(job: TofuJob, options: { dryRun?: boolean } = {}) {
    this.counter.count('POST');
    const taken = (j: ObservedJob) =>
      j.metadata.name === job.metadata.name &&
      j.metadata.namespace === job.metadata.namespace;
    if (this.jobs.some(taken)) {
      throw new KubeApiError(
        409,
        'AlreadyExists',
        `job ${job.metadata.name} already exists`,
      );
    }
    const created: ObservedJob = {
      metadata: {
        ...structuredClone(job.metadata),
        uid: `job-${this.version++}`,
      },
      status: {},
    };
    if (!options.dryRun) this.jobs.push(created);
    return structuredClone(created);
  }

  async createObject(
    object: ProvisioningObject,
    options: { dryRun?: boolean } = {},
  ) {
    this.counter.count('POST');
    const key = `${object.kind}/${object.metadata.namespace}/${object.metadata.name}`;
    if (this.objects.has(key)) return false;
    if (!options.dryRun)
      this.objects.set(key, {
        ...structuredClone(object),
        metadata: { ...object.metadata, uid: `uid-${this.version++}` },
      });
    return true;
  }

  async getObject(
    _apiVersion: string,
    kind: string,
    namespace: string,
    name: string,
  ) {
    this.counter.count('GET');
    const found = this.objects.get(`${kind}/${namespace}/${name}`);
    return found ? structuredClone(found) : undefined;
  }

  async deleteObject(
    object: Pick<ProvisioningObject, 'apiVersion' | 'kind' | 'metadata'>,
  ) {
    this.counter.count('DELETE');
    const { kind, metadata } = object;
    const key = `${kind}/${metadata.namespace}/${metadata.name}`;
    const found = this.objects.get(key);
    // DeleteOptions' preconditions.uid, as the API server checks it
    if (found && metadata.uid && found.metadata.uid !== metadata.uid) {
      throw new KubeApiError(
        409,
        'Conflict',
        `${kind} ${metadata.name}: the uid precondition failed`,
      );
    }
    return this.objects.delete(key);
  }

  async addOwner(
    object: Pick<ProvisioningObject, 'apiVersion' | 'kind' | 'metadata'>,
    owner: OwnerReference,
  ) {
    this.counter.count('PATCH');
    const { kind, metadata } = object;
    const found = this.objects.get(
      `${kind}/${metadata.namespace}/${metadata.name}`,
    );
    if (!found)
      throw new KubeApiError(
        404,
        'NotFound',
        `${kind} ${metadata.name} not found`,
      );
    const owners = found.metadata.ownerReferences ?? [];
    if (!owners.some(o => o.uid === owner.uid))
      found.metadata.ownerReferences = [...owners, owner];
  }

  async readLog(_namespace: string, pod: string) {
    this.counter.count('GET');
    return this.logs.get(pod);
  }

  async patchClusterSpec(
    name: string,
    spec: Record<string, unknown>,
    resourceVersion?: string,
  ): Promise<ClusterResource> {
    this.counter.count('PATCH');
    const cluster = this.store.clusterStore.get(name);
    if (!cluster)
      throw new KubeApiError(404, 'NotFound', `cluster ${name} not found`);
    if (
      resourceVersion &&
      cluster.metadata.resourceVersion !== resourceVersion
    ) {
      throw new KubeApiError(409, 'Conflict', `cluster ${name} changed`);
    }
    const merged = mergePatch(cluster.spec, spec) as ClusterResource['spec'];
    const next: ClusterResource = {
      ...cluster,
      metadata: {
        ...cluster.metadata,
        generation: (cluster.metadata.generation ?? 1) + 1,
        resourceVersion: `mp-${this.version++}`,
      },
      spec: merged,
    };
    this.store.clusterStore.set(name, next);
    return structuredClone(next);
  }
}

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

  async listJobs(_namespace: string, labelSelector: string) {
    this.counter.count('LIST');
    return this.jobs
      .filter(j => matchesLabelSelector(j.metadata.labels ?? {}, labelSelector))
      .map(j => structuredClone(j));
  }

  async listPods(_namespace: string, labelSelector: string) {
    this.counter.count('LIST');
    return this.pods
      .filter(p => matchesLabelSelector(p.metadata.labels ?? {}, labelSelector))
      .map(p => structuredClone(p));
  }

  async createJob(job: TofuJob, options: { dryRun?: boolean } = {}) {
    this.counter.count('POST');
    if (this.jobs.some(j => j.metadata.name === job.metadata.name)) {
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
    return this.objects.delete(
      `${kind}/${metadata.namespace}/${metadata.name}`,
    );
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
    const merged: any = structuredClone(cluster.spec);
    for (const [key, value] of Object.entries(spec)) {
      merged[key] =
        value && typeof value === 'object' && !Array.isArray(value)
          ? { ...(merged[key] ?? {}), ...(value as object) }
          : value;
    }
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

import { PatchStrategy, type V1Job } from '@kubernetes/client-node';
import {
  CLUSTER_PLURAL,
  INFRARED_GROUP,
  INFRARED_VERSION,
  type ClusterResource,
  type ClusterSpec,
  type ObjectMeta,
  type OwnerReference,
} from '@infrared-clusters/plugin-infrared-common';
import type { ObservedJob, ObservedPod, TofuJob } from './tofu';
import { KubeClient } from './client';
import type { RequestCounter } from './counter';
import { isNotFound, kubeCall as call } from './errors';
import { listAllPages } from './pagedList';

/**
 * A namespaced object provisioning makes besides Jobs: a Cluster's ServiceAccount, Role and
 * RoleBinding, its state Secret and lock Lease (and their copies when a Cluster's state moves).
 *
 * @public
 */
export interface ProvisioningObject {
  apiVersion: string;
  kind: string;
  metadata: ObjectMeta;
  [field: string]: unknown;
}

const COLLECTIONS: Record<string, (ns: string) => string> = {
  'v1/ServiceAccount': ns => `/api/v1/namespaces/${ns}/serviceaccounts`,
  'v1/Secret': ns => `/api/v1/namespaces/${ns}/secrets`,
  'rbac.authorization.k8s.io/v1/Role': ns =>
    `/apis/rbac.authorization.k8s.io/v1/namespaces/${ns}/roles`,
  'rbac.authorization.k8s.io/v1/RoleBinding': ns =>
    `/apis/rbac.authorization.k8s.io/v1/namespaces/${ns}/rolebindings`,
  'coordination.k8s.io/v1/Lease': ns =>
    `/apis/coordination.k8s.io/v1/namespaces/${ns}/leases`,
};

/** The collection path of a kind provisioning makes. */
function collection(apiVersion: string, kind: string, namespace: string) {
  const path = COLLECTIONS[`${apiVersion}/${kind}`];
  if (!path)
    throw new Error(`provisioning does not make ${apiVersion} ${kind}`);
  return path(encodeURIComponent(namespace));
}

/** The path of one object provisioning makes (its namespace, else `default`). */
function objectPath(
  object: Pick<ProvisioningObject, 'apiVersion' | 'kind' | 'metadata'>,
): string {
  const { apiVersion, kind, metadata } = object;
  return `${collection(
    apiVersion,
    kind,
    metadata.namespace ?? 'default',
  )}/${encodeURIComponent(metadata.name)}`;
}

/**
 * What provisioning reads and writes on the management cluster: Jobs and their Pods by label (one
 * LIST each per pass, never a GET per Cluster), a Pod's log once its Job finished, and Job creation
 * (also as a server-side dry run).
 *
 * @public
 */
export interface ProvisioningKubeApi {
  listJobs(namespace: string, labelSelector: string): Promise<ObservedJob[]>;
  listPods(namespace: string, labelSelector: string): Promise<ObservedPod[]>;
  /** Throws KubeApiError 409 AlreadyExists when the name is taken. */
  createJob(job: TofuJob, options?: { dryRun?: boolean }): Promise<ObservedJob>;
  /** A container's log; undefined when the Pod is gone. */
  readLog(
    namespace: string,
    pod: string,
    container: string,
    options?: { tailLines?: number; limitBytes?: number },
  ): Promise<string | undefined>;
  /**
   * Merge-patches a Cluster's spec (a null value removes a field), only if the Cluster is still at
   * `resourceVersion` when one is given (KubeApiError 409 otherwise).
   */
  patchClusterSpec(
    name: string,
    spec: Partial<Record<keyof ClusterSpec, unknown>>,
    resourceVersion?: string,
  ): Promise<ClusterResource>;
  /**
   * Creates a ServiceAccount, Role, RoleBinding, Secret or Lease; false when one of that name
   * exists (it is left as it is).
   */
  createObject(
    object: ProvisioningObject,
    options?: { dryRun?: boolean },
  ): Promise<boolean>;
  /** One such object; undefined when there is none. */
  getObject(
    apiVersion: string,
    kind: string,
    namespace: string,
    name: string,
  ): Promise<ProvisioningObject | undefined>;
  /** Deletes one, only if it still has this uid; false when it is gone already. */
  deleteObject(
    object: Pick<ProvisioningObject, 'apiVersion' | 'kind' | 'metadata'>,
  ): Promise<boolean>;
  /** Adds an owner to one (its other owners stay: a strategic merge by uid). */
  addOwner(
    object: Pick<ProvisioningObject, 'apiVersion' | 'kind' | 'metadata'>,
    owner: OwnerReference,
  ): Promise<void>;
  counter: RequestCounter;
}

/**
 * ProvisioningKubeApi through one client (BatchV1Api and CoreV1Api).
 *
 * @public
 */
export class KubeProvisioningApi implements ProvisioningKubeApi {
  constructor(private readonly kube: KubeClient) {}

  get counter(): RequestCounter {
    return this.kube.counter;
  }

  listJobs(namespace: string, labelSelector: string): Promise<ObservedJob[]> {
    return call(`LIST jobs in ${namespace}`, async () => {
      const ns = encodeURIComponent(namespace);
      const list = await listAllPages<ObservedJob>(
        this.kube,
        `/apis/batch/v1/namespaces/${ns}/jobs`,
        { labelSelector },
      );
      return list.items;
    });
  }

  listPods(namespace: string, labelSelector: string): Promise<ObservedPod[]> {
    return call(`LIST pods in ${namespace}`, async () => {
      const ns = encodeURIComponent(namespace);
      const list = await listAllPages<ObservedPod>(
        this.kube,
        `/api/v1/namespaces/${ns}/pods`,
        { labelSelector },
      );
      return list.items;
    });
  }

  createJob(
    job: TofuJob,
    options: { dryRun?: boolean } = {},
  ): Promise<ObservedJob> {
    const namespace = job.metadata.namespace ?? 'default';
    return call(
      `CREATE job ${namespace}/${job.metadata.name}${
        options.dryRun ? ' (dry run)' : ''
      }`,
      async () =>
        JSON.parse(
          JSON.stringify(
            await this.kube.batch.createNamespacedJob({
              namespace,
              body: job as unknown as V1Job,
              dryRun: options.dryRun ? 'All' : undefined,
            }),
          ),
        ) as ObservedJob,
    );
  }

  async readLog(
    namespace: string,
    pod: string,
    container: string,
    options: { tailLines?: number; limitBytes?: number } = {},
  ): Promise<string | undefined> {
    try {
      return await call(`GET pods/log ${namespace}/${pod}`, () =>
        this.kube.core.readNamespacedPodLog({
          namespace,
          name: pod,
          container,
          tailLines: options.tailLines,
          limitBytes: options.limitBytes,
        }),
      );
    } catch (e) {
      if (isNotFound(e)) return undefined;
      throw e;
    }
  }

  patchClusterSpec(
    name: string,
    spec: Partial<Record<keyof ClusterSpec, unknown>>,
    resourceVersion?: string,
  ): Promise<ClusterResource> {
    const body = {
      spec,
      ...(resourceVersion ? { metadata: { resourceVersion } } : {}),
    };
    return call(`PATCH cluster ${name} spec`, () =>
      this.kube.custom.patchClusterCustomObject(
        {
          group: INFRARED_GROUP,
          version: INFRARED_VERSION,
          plural: CLUSTER_PLURAL,
          name,
          body,
        },
        this.kube.callOptions({ contentType: PatchStrategy.MergePatch }),
      ),
    );
  }

  async createObject(
    object: ProvisioningObject,
    options: { dryRun?: boolean } = {},
  ): Promise<boolean> {
    const { apiVersion, kind, metadata } = object;
    const path = collection(apiVersion, kind, metadata.namespace ?? 'default');
    const res = await this.kube.must(
      'POST',
      `${path}${options.dryRun ? '?dryRun=All' : ''}`,
      object,
      [409],
    );
    return res.status !== 409;
  }

  async getObject(
    apiVersion: string,
    kind: string,
    namespace: string,
    name: string,
  ): Promise<ProvisioningObject | undefined> {
    const path = `${collection(
      apiVersion,
      kind,
      namespace,
    )}/${encodeURIComponent(name)}`;
    const res = await this.kube.must<ProvisioningObject>(
      'GET',
      path,
      undefined,
      [404],
    );
    return res.status === 404 ? undefined : res.body;
  }

  async deleteObject(
    object: Pick<ProvisioningObject, 'apiVersion' | 'kind' | 'metadata'>,
  ): Promise<boolean> {
    const { metadata } = object;
    const path = objectPath(object);
    const res = await this.kube.must(
      'DELETE',
      path,
      {
        apiVersion: 'v1',
        kind: 'DeleteOptions',
        ...(metadata.uid ? { preconditions: { uid: metadata.uid } } : {}),
      },
      [404],
    );
    return res.status !== 404;
  }

  async addOwner(
    object: Pick<ProvisioningObject, 'apiVersion' | 'kind' | 'metadata'>,
    owner: OwnerReference,
  ): Promise<void> {
    const path = objectPath(object);
    await this.kube.must(
      'PATCH',
      path,
      { metadata: { ownerReferences: [owner] } },
      [],
      'application/strategic-merge-patch+json',
    );
  }
}

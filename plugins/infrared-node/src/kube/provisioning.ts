import { PatchStrategy, type V1Job } from '@kubernetes/client-node';
import {
  CLUSTER_PLURAL,
  INFRARED_GROUP,
  INFRARED_VERSION,
  type ClusterResource,
  type ClusterSpec,
} from '@infrared-clusters/plugin-infrared-common';
import type { ObservedJob, ObservedPod, TofuJob } from '../provisioning';
import { KubeClient } from './client';
import type { RequestCounter } from './counter';
import { isNotFound, kubeCall as call } from './errors';

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
      const list = await this.kube.batch.listNamespacedJob({
        namespace,
        labelSelector,
      });
      return list.items.map(j => JSON.parse(JSON.stringify(j)) as ObservedJob);
    });
  }

  listPods(namespace: string, labelSelector: string): Promise<ObservedPod[]> {
    return call(`LIST pods in ${namespace}`, async () => {
      const list = await this.kube.core.listNamespacedPod({
        namespace,
        labelSelector,
      });
      return list.items.map(p => JSON.parse(JSON.stringify(p)) as ObservedPod);
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
              body: job as V1Job,
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
}

import type { V1Job } from '@kubernetes/client-node';
import type { ObservedJob, ObservedPod, TofuJob } from '../provisioning';
import { KubeClient } from './client';
import type { RequestCounter } from './counter';
import { isNotFound, toKubeApiError } from './errors';

async function call<T>(what: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    throw toKubeApiError(e, what);
  }
}

/**
 * What provisioning reads and writes on the management cluster: Jobs and their Pods by label (one
 * LIST each per pass, never a GET per Cluster), a Pod's log once its Job finished, and Job creation
 * (also as a server-side dry run).
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
  counter: RequestCounter;
}

/** ProvisioningKubeApi through one client (BatchV1Api and CoreV1Api). */
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
}

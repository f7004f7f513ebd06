/**
 * The provisioning executor: one pass reads every Cluster, every OpenTofu Job and their Pods with
 * three LISTs (never a GET per Cluster), asks the planner what to do for each built Cluster, makes
 * the few reads a finished Job needs once (its log, the credentials to redact, the state's
 * outputs), and applies the planner's writes.
 */
import type { LoggerService } from '@backstage/backend-plugin-api';
import {
  DEFAULT_TOFU_NAMESPACE,
  PROVISIONED_CONDITION,
  secretStrings,
  type ClusterResource,
} from '@infrared-clusters/plugin-infrared-common';
import {
  forEachLimited,
  isAlreadyExists,
  isConflict,
  KubeApiError,
  stateOutputs,
  TOFU_JOB_SELECTOR,
  type ManagementApi,
  type ProvisioningKubeApi,
  type TofuJob,
} from '@infrared-clusters/infrared-kube';
import {
  indexRuns,
  isBuilt,
  planCluster,
  statusAction,
  type ProvisioningAction,
  type ProvisioningContext,
  type ProvisioningRead,
  type ProvisioningReads,
} from './plan';
import { ownByJob, prepareJob } from './jobAccess';
import { registerBuiltCluster } from './autoRegister';

export interface ProvisioningReconcilerOptions {
  api: ManagementApi;
  kube: ProvisioningKubeApi;
  logger: LoggerService;
  context: Omit<ProvisioningContext, 'now'>;
  /**
   * Called after a Cluster got its connection from its apply, or its destroy succeeded, so
   * registration follows at once (Registered, the Argo CD Secret).
   */
  onRegistered?: (name: string) => void;
  now?: () => string;
}

export interface ProvisioningPassSummary {
  clusters: number;
  built: number;
  jobsCreated: number;
  statusWrites: number;
  registered: number;
  requests: number;
  durationMs: number;
}

const CONCURRENCY = 8;

/** A refusal that is an answer about the Job itself (not the network, not the server's trouble). */
const isRefusal = (e: unknown) =>
  e instanceof KubeApiError && e.code >= 400 && e.code < 500 && e.code !== 429;

/** The write records a destroy that succeeded: the cluster reconciler deregisters it. */
const destroyedNow = (before: ClusterResource, after: ClusterResource) => {
  const done = (c: ClusterResource) =>
    c.status?.provision?.action === 'destroy' &&
    c.status.provision.phase === 'Succeeded';
  return done(after) && !done(before);
};

export class ProvisioningReconciler {
  constructor(private readonly options: ProvisioningReconcilerOptions) {}

  /** The OpenTofu Jobs' namespace (kubeconfig Secrets stay in infrared). */
  private get namespace() {
    return this.options.context.namespace ?? DEFAULT_TOFU_NAMESPACE;
  }

  private get access() {
    return {
      kube: this.options.kube,
      logger: this.options.logger,
      namespace: this.namespace,
    };
  }

  async reconcile(
    scope: { signal?: AbortSignal } = {},
  ): Promise<ProvisioningPassSummary> {
    const { api, kube } = this.options;
    const started = Date.now();
    const before =
      api.counter.total +
      (kube.counter === api.counter ? 0 : kube.counter.total);
    const summary: ProvisioningPassSummary = {
      clusters: 0,
      built: 0,
      jobsCreated: 0,
      statusWrites: 0,
      registered: 0,
      requests: 0,
      durationMs: 0,
    };
    const clusters = await api.clusters.list();
    summary.clusters = clusters.length;
    const built = clusters.filter(isBuilt);
    summary.built = built.length;
    if (built.length) {
      const [jobs, pods] = await Promise.all([
        kube.listJobs(this.namespace, TOFU_JOB_SELECTOR),
        kube.listPods(this.namespace, TOFU_JOB_SELECTOR),
      ]);
      const runs = indexRuns(jobs, pods);
      const context = {
        ...this.options.context,
        now: this.options.now?.() ?? new Date().toISOString(),
      };
      await forEachLimited(
        built,
        CONCURRENCY,
        async cluster => {
          try {
            let plan = planCluster(cluster, runs, context);
            if ('reads' in plan) {
              const reads = await this.read(plan.reads);
              plan = planCluster(cluster, runs, context, reads);
            }
            if ('actions' in plan) {
              await this.apply(cluster, plan.actions, context.now, summary);
            }
          } catch (e) {
            this.options.logger.warn(
              `infrared: provisioning cluster ${
                cluster.metadata.name
              } failed: ${(e as Error).message}`,
            );
          }
        },
        scope.signal,
      );
    }
    summary.requests =
      api.counter.total +
      (kube.counter === api.counter ? 0 : kube.counter.total) -
      before;
    summary.durationMs = Date.now() - started;
    return summary;
  }

  private async read(needs: ProvisioningRead[]): Promise<ProvisioningReads> {
    const { api, kube } = this.options;
    const reads: ProvisioningReads = {};
    for (const need of needs) {
      switch (need.type) {
        case 'log':
          reads.log =
            (await kube.readLog(need.namespace, need.pod, need.container)) ??
            null;
          break;
        case 'credentials': {
          const secret = await api.secrets.get(need.namespace, need.secret);
          reads.credentials = secret
            ? Object.values(secretStrings(secret))
            : null;
          break;
        }
        case 'outputs': {
          const secret = await api.secrets.get(need.namespace, need.secret);
          reads.outputs = secret ? stateOutputs(secret.data) ?? null : null;
          break;
        }
        default:
      }
    }
    return reads;
  }

  private async apply(
    cluster: ClusterResource,
    actions: ProvisioningAction[],
    now: string,
    summary: ProvisioningPassSummary,
  ): Promise<void> {
    const name = cluster.metadata.name;
    for (const action of actions) {
      switch (action.type) {
        case 'createJob':
          if (!(await this.createJob(cluster, action.job, now, summary)))
            return; // not made: the rest of the plan waits for the next pass
          break;
        case 'writeStatus':
          await this.writeStatus(action.cluster, summary);
          if (destroyedNow(cluster, action.cluster))
            this.options.onRegistered?.(name);
          break;
        case 'register':
          if (
            await registerBuiltCluster(
              this.options,
              action.cluster,
              action.secretName,
              action.kubeconfig,
            )
          ) {
            summary.registered++;
            this.options.onRegistered?.(name);
          }
          break;
        default:
      }
    }
  }

  /**
   * Makes a Job after what it needs (its state moved or made, its identity); false when it was not
   * made (it waits for an earlier Job's lock, or the API server refused it: then status says so).
   */
  private async createJob(
    cluster: ClusterResource,
    job: TofuJob,
    now: string,
    summary: ProvisioningPassSummary,
  ): Promise<boolean> {
    const { kube, logger } = this.options;
    const name = cluster.metadata.name;
    const jobName = job.metadata.name;
    const waits = await prepareJob(cluster, this.access);
    if (waits) {
      // planned again next pass; status.provision never names a Job not made, the condition says why
      const held = statusAction(
        cluster,
        cluster.status?.provision,
        {
          type: PROVISIONED_CONDITION,
          status: 'Unknown',
          reason: 'JobWaiting',
          message: `Job ${jobName}: ${waits}`,
          observedGeneration: cluster.metadata.generation,
        },
        now,
      );
      if (held && held.type === 'writeStatus')
        await this.writeStatus(held.cluster, summary);
      return false;
    }
    try {
      const made = await kube.createJob(job);
      await ownByJob(cluster, made, this.access).catch(e =>
        logger.warn(
          `infrared: Job ${jobName} could not be made an owner of its ServiceAccount and Role (they go with the Cluster only): ${
            (e as Error).message
          }`,
        ),
      );
      summary.jobsCreated++;
      logger.info(
        `infrared: started OpenTofu Job ${this.namespace}/${jobName} for cluster ${name}`,
      );
      return true;
    } catch (e) {
      if (isAlreadyExists(e)) return true;
      if (!isRefusal(e)) throw e; // nothing was made: the next pass tries to make it
      const message = `the API server refused Job ${jobName}: ${
        (e as Error).message
      }`;
      const refused = statusAction(
        cluster,
        {
          action:
            job.metadata.labels?.['infrared.darkshift.io/action'] ?? 'plan',
          generation: cluster.metadata.generation ?? 1,
          job: jobName,
          phase: 'Failed',
          message,
          specHash:
            job.metadata.annotations?.[
              'infrared.darkshift.io/provision-spec-hash'
            ],
        },
        {
          type: PROVISIONED_CONDITION,
          status: 'False',
          reason: 'JobRefused',
          message,
          observedGeneration: cluster.metadata.generation,
        },
        now,
      );
      if (refused && refused.type === 'writeStatus')
        await this.writeStatus(refused.cluster, summary);
      return false;
    }
  }

  private async writeStatus(
    cluster: ClusterResource,
    summary: ProvisioningPassSummary,
  ): Promise<void> {
    try {
      await this.options.api.clusters.replaceStatus(cluster);
      summary.statusWrites++;
    } catch (e) {
      if (isConflict(e)) return; // changed since the LIST: the next pass plans it again
      throw e;
    }
  }
}

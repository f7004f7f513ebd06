import type { LoggerService } from '@backstage/backend-plugin-api';
import {
  ConflictError,
  InputError,
  NotFoundError,
  ServiceUnavailableError,
} from '@backstage/errors';
import {
  clusterView,
  DEFAULT_TOFU_NAMESPACE,
  defaultAllowList,
  secretStrings,
  validateClusterName,
  type BuildInProgress,
  type ClusterTemplate,
  type ProvisioningRunnerView,
  type ProvisioningAllowList,
  type ClusterView,
  type ProvisionAction,
} from '@infrared-clusters/plugin-infrared-common';
import {
  isConflict,
  KubeApiError,
  redact,
  TOFU_CONTAINER,
  type ManagementApi,
  type ProvisioningKubeApi,
} from '@infrared-clusters/infrared-kube';
import { findBuildInProgress } from './removal';
import { readRunnerStatus } from './runnerStatus';

export interface ProvisioningServiceOptions {
  api: ManagementApi;
  kube: ProvisioningKubeApi;
  logger: LoggerService;
  templates: ClusterTemplate[];
  /** The OpenTofu Jobs' namespace; default infrared-tofu. */
  namespace?: string;
  /** What provision.image and provision.source may name; default the templates'. */
  allow?: ProvisioningAllowList;
  /** Starts a provisioning pass at once. */
  onChange?: (name: string) => void;
  /** `infrared.provisioning.runnerStatusFile` (runnerStatus.ts). */
  runnerStatusFile?: string;
}

/** The log the panel shows: the last Job's, with every credential value replaced by ***. */
export interface ProvisionLog {
  job: string;
  pod?: string;
  log: string;
}

/** Longest log the API returns (its tail). */
export const MAX_LOG_BYTES = 256 * 1024;

function toHttpError(e: unknown): Error {
  if (e instanceof KubeApiError) {
    if (e.code === 404) return new NotFoundError(e.message);
    if (e.code === 409) return new ConflictError(e.message);
    if (e.code === 422 || e.code === 400) return new InputError(e.message);
    return new ServiceUnavailableError(`the management cluster: ${e.message}`);
  }
  return e as Error;
}

/** What the API does for a built Cluster: its templates, its action, its log. */
export class ProvisioningService {
  constructor(private readonly options: ProvisioningServiceOptions) {}

  /** The OpenTofu Jobs' namespace (their state, Leases and credentials Secrets too). */
  get namespace(): string {
    return this.options.namespace ?? DEFAULT_TOFU_NAMESPACE;
  }

  templates(): ClusterTemplate[] {
    return this.options.templates;
  }

  /** Whether the OpenTofu Jobs can run yet (a local environment may still be preparing tofu). */
  runner(): ProvisioningRunnerView {
    return readRunnerStatus(this.options.runnerStatusFile);
  }

  /**
   * What POST /v1/clusters checks a template and provision against: the templates and the images
   * and sources provision may name (`validateRegisterClusterRequest`'s options).
   */
  validation(): {
    templates: ClusterTemplate[];
    allowedImages: readonly string[];
    allowedSources: readonly string[];
  } {
    const allow =
      this.options.allow ?? defaultAllowList(this.options.templates);
    return {
      templates: this.options.templates,
      allowedImages: allow.images,
      allowedSources: allow.sources,
    };
  }

  /** Starts a pass for a Cluster the API just made with a template. */
  changed(name: string): void {
    this.options.onChange?.(name);
  }

  private async built(name: string) {
    if (validateClusterName(name))
      throw new NotFoundError(`cluster ${name} does not exist`);
    let cluster;
    try {
      cluster = await this.options.api.clusters.get(name);
    } catch (e) {
      throw toHttpError(e);
    }
    if (!cluster) throw new NotFoundError(`cluster ${name} does not exist`);
    if (!cluster.spec.template || !cluster.spec.provision) {
      throw new ConflictError(
        `cluster ${name} is not built with OpenTofu: it has no spec.template and spec.provision`,
      );
    }
    return cluster;
  }

  /**
   * Sets spec.provision.action (a new generation, so a new Job), only on the Cluster as read.
   * Nothing is written when the action already is that.
   */
  async setAction(
    name: string,
    action: ProvisionAction,
  ): Promise<{ view: ClusterView; changed: boolean }> {
    const cluster = await this.built(name);
    if ((cluster.spec.provision?.action ?? 'plan') === action) {
      return { view: clusterView(cluster), changed: false };
    }
    try {
      const updated = await this.options.kube.patchClusterSpec(
        name,
        { provision: { action } },
        cluster.metadata.resourceVersion,
      );
      this.options.logger.info(
        `infrared: cluster ${name} provision.action set to ${action}`,
      );
      this.options.onChange?.(name);
      return { view: clusterView(updated), changed: true };
    } catch (e) {
      if (isConflict(e)) {
        throw new ConflictError(
          `cluster ${name} changed while the action was set; read it again and retry`,
        );
      }
      throw toHttpError(e);
    }
  }

  /**
   * The apply or destroy that keeps a Cluster from being removed now (removal.ts), if any;
   * undefined for a Cluster that does not exist or is not built.
   */
  async buildInProgress(name: string): Promise<BuildInProgress | undefined> {
    try {
      const cluster = await this.options.api.clusters.get(name);
      return cluster
        ? await findBuildInProgress(this.options.kube, this.namespace, cluster)
        : undefined;
    } catch (e) {
      throw toHttpError(e);
    }
  }

  /** The last Job's log (its tail), with the credentials Secret's values redacted. */
  async log(name: string): Promise<ProvisionLog> {
    const cluster = await this.built(name);
    const job = cluster.status?.provision?.job;
    if (!job)
      throw new NotFoundError(`cluster ${name} has no OpenTofu Job yet`);
    try {
      const pods = await this.options.kube.listPods(
        this.namespace,
        `batch.kubernetes.io/job-name=${job}`,
      );
      const pod = pods.sort((a: any, b: any) =>
        String(b.metadata.creationTimestamp ?? '').localeCompare(
          String(a.metadata.creationTimestamp ?? ''),
        ),
      )[0];
      if (!pod) return { job, log: '' };
      // a Pod not yet running has no log: the API server answers its log with an error
      if (pod.status?.phase === 'Pending') {
        return { job, pod: pod.metadata.name, log: '' };
      }
      const text =
        (await this.options.kube.readLog(
          this.namespace,
          pod.metadata.name,
          TOFU_CONTAINER,
          {
            limitBytes: MAX_LOG_BYTES,
          },
        )) ?? '';
      const credentials = cluster.spec.provision?.credentialsSecretRef?.name;
      const secret = credentials
        ? await this.options.api.secrets.get(this.namespace, credentials)
        : undefined;
      const values = secret ? Object.values(secretStrings(secret)) : [];
      return { job, pod: pod.metadata.name, log: redact(text, values) };
    } catch (e) {
      throw toHttpError(e);
    }
  }
}

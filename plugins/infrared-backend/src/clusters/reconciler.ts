import type { LoggerService } from '@backstage/backend-plugin-api';
import {
  ARGOCD_NAMESPACE,
  argoSecretName,
  describeArgoSecretManager,
  INFRARED_NAMESPACE,
  MANAGED_BY_INFRARED,
  MANAGED_BY_LABEL,
  type ClusterResource,
  type ClusterStatus,
  type SecretObject,
} from '@internal/plugin-infrared-common';
import {
  forEachLimited,
  isAlreadyExists,
  isConflict,
  isNotFound,
  KeyedLock,
  retryOnConflict,
  type ClusterProber,
  type ManagementApi,
  type ProbeResult,
} from '@internal/plugin-infrared-node';
import {
  appOfAppsPath,
  registrationFiles,
  type GitopsChange,
  type GitopsPublisher,
} from '../gitops';
import { kubeconfigSecretRef, resolveConnection } from './connection';
import { ArgoSecretConflictError, CRD_MISSING, isCrdMissing } from './errors';
import { managementClusterResource } from './management';
import {
  argoSecretReplacement,
  completeRegistration,
  isOurArgoSecret,
  mergeOwnedStatus,
  ownerReferencesFor,
  planClusterReconcile,
  REGISTERED_FILES_ANNOTATION,
  registrationBlocked,
  statusChanged,
  type SecretAction,
} from './plan';

export interface ClusterReconcilerOptions {
  api: ManagementApi;
  prober: ClusterProber;
  publisher: GitopsPublisher;
  /** The name of the management cluster (config `infrared.managementCluster.name`). */
  managementCluster: string;
  logger: LoggerService;
  /** Clusters reconciled at once in a pass (probes of dead servers wait for their timeout). Default 16. */
  concurrency?: number;
  clock?: () => Date;
}

/** What one pass did, for logs and the benchmark. */
export interface ReconcilePassSummary {
  clusters: number;
  /** Requests sent to the management cluster's API during the pass. */
  requests: number;
  requestsByVerb: Record<string, number>;
  statusWrites: number;
  secretWrites: number;
  published: number;
  failed: number;
  durationMs: number;
}

interface PassCounters {
  statusWrites: number;
  secretWrites: number;
  published: number;
  failed: number;
}

const MANAGED_SELECTOR = `${MANAGED_BY_LABEL}=${MANAGED_BY_INFRARED}`;

/** The gitops change for a cluster, and the default branch a merged change lands on (when described). */
type Registration = ((
  clusterName: string,
) => GitopsChange | { error: string }) & {
  defaultBranch?: string;
};

/** The gitops change that registers one cluster. */
export function registrationChange(
  clusterName: string,
  managementCluster: string,
  repo: { repoUrl: string; defaultBranch: string },
): GitopsChange {
  return {
    key: `cluster-${clusterName}`,
    title: `Register cluster ${clusterName}`,
    body: `Infrared registers the cluster \`${clusterName}\`: the Argo CD Application \`registry-${clusterName}\` on the management cluster \`${managementCluster}\` syncs \`registry/clusters/${clusterName}/components\`.`,
    files: registrationFiles({
      clusterName,
      managementCluster,
      repoUrl: repo.repoUrl,
      branch: repo.defaultBranch,
    }),
  };
}

/**
 * The executor: reads with LISTs (all Clusters, and the Secrets Infrared manages in namespaces
 * infrared and argocd), probes each cluster, applies what `planClusterReconcile` says and writes
 * a status only when it changed.
 */
export class ClusterReconciler {
  private readonly lock = new KeyedLock();
  /** When each Cluster was last reconciled from fresh reads (reconcileOne), in this process. */
  private readonly freshAt = new Map<string, number>();
  private readonly clock: () => Date;

  constructor(private readonly options: ClusterReconcilerOptions) {
    this.clock = options.clock ?? (() => new Date());
  }

  /** One pass over every Cluster; makes the management cluster first when it is missing. */
  async reconcileAll(signal?: AbortSignal): Promise<ReconcilePassSummary> {
    const { api, logger } = this.options;
    const started = Date.now();
    const before = api.counter.byVerb();
    let skipped = 0;
    const counters: PassCounters = {
      statusWrites: 0,
      secretWrites: 0,
      published: 0,
      failed: 0,
    };
    const [clusters, kubeconfigSecrets, argoSecrets] = await Promise.all([
      api.clusters.list().catch(e => {
        throw isCrdMissing(e) ? new Error(`infrared: ${CRD_MISSING}`) : e;
      }),
      api.secrets.list(INFRARED_NAMESPACE, MANAGED_SELECTOR),
      api.secrets.list(ARGOCD_NAMESPACE, MANAGED_SELECTOR),
    ]);
    const management = await this.ensureManagementCluster(clusters);
    if (management) clusters.push(management);

    const byName = (list: SecretObject[]) =>
      new Map(list.map(s => [s.metadata.name, s]));
    const kubeconfigs = byName(kubeconfigSecrets);
    const argos = byName(argoSecrets);
    const registration = await this.registrationFor();

    await forEachLimited(
      clusters,
      this.options.concurrency ?? 16,
      async cluster => {
        const name = cluster.metadata.name;
        // reconcileOne has it (or had it after our LIST): our copy is older than what it read.
        if (this.lock.busy(name) || (this.freshAt.get(name) ?? 0) >= started) {
          skipped++;
          return;
        }
        try {
          await this.lock.run(name, async () => {
            const ref = kubeconfigSecretRef(cluster);
            let kubeconfigSecret = ref ? kubeconfigs.get(ref.name) : undefined;
            if (ref && !kubeconfigSecret) {
              // Made by hand (no label yet) or missing: one GET for those only.
              kubeconfigSecret = await api.secrets.get(
                INFRARED_NAMESPACE,
                ref.name,
              );
            }
            let argoSecret = argos.get(argoSecretName(name));
            if (!argoSecret && ref) {
              // Not ours yet, or another's (by hand, the registrar): one GET for those only.
              argoSecret = await api.secrets.get(
                ARGOCD_NAMESPACE,
                argoSecretName(name),
              );
            }
            await this.reconcileObserved(
              cluster,
              kubeconfigSecret,
              argoSecret,
              registration,
              counters,
              signal,
            );
          });
        } catch (e) {
          counters.failed++;
          logger.warn(
            `infrared: reconciling cluster ${cluster.metadata.name} failed: ${
              (e as Error).message
            }`,
          );
        }
      },
      signal,
    );

    const after = api.counter.byVerb();
    const requestsByVerb: Record<string, number> = {};
    for (const [verb, n] of Object.entries(after)) {
      const delta = n - (before[verb] ?? 0);
      if (delta) requestsByVerb[verb] = delta;
    }
    return {
      clusters: clusters.length - skipped,
      requests: Object.values(requestsByVerb).reduce((a, b) => a + b, 0),
      requestsByVerb,
      ...counters,
      durationMs: Date.now() - started,
    };
  }

  /**
   * Reconciles one Cluster now (after an API write), with GETs instead of LISTs. Serialized with
   * the pass in this process; across replicas the writes are safe by resourceVersion preconditions,
   * AlreadyExists handling and the publisher's idempotency.
   */
  async reconcileOne(name: string, signal?: AbortSignal): Promise<void> {
    const { api } = this.options;
    await this.lock.run(name, async () => {
      this.freshAt.set(name, Date.now());
      const cluster = await api.clusters.get(name);
      if (!cluster) return;
      const ref = kubeconfigSecretRef(cluster);
      const [kubeconfigSecret, argoSecret, registration] = await Promise.all([
        ref ? api.secrets.get(INFRARED_NAMESPACE, ref.name) : undefined,
        api.secrets.get(ARGOCD_NAMESPACE, argoSecretName(name)),
        this.registrationFor(),
      ]);
      await this.reconcileObserved(
        cluster,
        kubeconfigSecret,
        argoSecret,
        registration,
        { statusWrites: 0, secretWrites: 0, published: 0, failed: 0 },
        signal,
      );
    });
  }

  private async ensureManagementCluster(
    clusters: ClusterResource[],
  ): Promise<ClusterResource | undefined> {
    const name = this.options.managementCluster;
    const existing = clusters.find(c => c.metadata.name === name);
    if (existing) {
      if (existing.spec.type !== 'management') {
        this.options.logger.warn(
          `infrared: Cluster ${name} is the configured management cluster but has type ${existing.spec.type}`,
        );
      }
      return undefined;
    }
    try {
      const created = await this.options.api.clusters.create(
        managementClusterResource(name),
      );
      this.options.logger.info(`infrared: created management Cluster ${name}`);
      return created;
    } catch (e) {
      if (isAlreadyExists(e)) {
        return (await this.options.api.clusters.get(name)) ?? undefined;
      }
      throw e;
    }
  }

  private async registrationFor(): Promise<Registration> {
    try {
      const repo = await this.options.publisher.describe();
      return Object.assign(
        (clusterName: string) =>
          registrationChange(clusterName, this.options.managementCluster, repo),
        { defaultBranch: repo.defaultBranch },
      );
    } catch (e) {
      const error = `the gitops repository cannot be described: ${
        (e as Error).message
      }`;
      return () => ({ error });
    }
  }

  private async reconcileObserved(
    cluster: ClusterResource,
    kubeconfigSecret: SecretObject | undefined,
    argoSecret: SecretObject | undefined,
    registration: Registration,
    counters: PassCounters,
    signal?: AbortSignal,
  ): Promise<void> {
    const { api, prober, publisher, logger } = this.options;
    const name = cluster.metadata.name;
    if (cluster.metadata.deletionTimestamp) return;
    const connection = resolveConnection(cluster, kubeconfigSecret);
    let probe: ProbeResult | undefined;
    if (connection.kind !== 'unusable') {
      probe = await prober.probe(connection, signal);
    }
    if (signal?.aborted) return;
    const now = () => this.clock().toISOString();
    const plan = planClusterReconcile({
      cluster,
      connection,
      kubeconfigSecret,
      argoSecret,
      probe,
      registration: registration(name),
      now: now(),
    });
    if (plan.skipped) return;

    let blocked: { reason: string; message: string } | undefined;
    for (const action of plan.actions) {
      try {
        await this.apply(action, cluster);
        counters.secretWrites++;
      } catch (e) {
        const message = (e as Error).message;
        logger.warn(`infrared: cluster ${name}: ${action.type}: ${message}`);
        if (e instanceof ArgoSecretConflictError) {
          blocked = { reason: 'ArgoSecretConflict', message };
        } else if (action.type !== 'adoptKubeconfigSecret') {
          blocked = {
            reason: 'ArgoSecretFailed',
            message: `the Argo CD cluster Secret could not be written: ${message}`,
          };
        }
      }
    }

    let base = cluster;
    let status: ClusterStatus = plan.status;
    if (blocked) {
      status = registrationBlocked(status, cluster, blocked, now());
    } else if (plan.publish) {
      try {
        const { change, pending } = plan.publish;
        const result = await publisher.publish(
          change,
          pending ? { pending } : undefined,
        );
        counters.published++;
        status = completeRegistration(
          status,
          cluster,
          { result },
          now(),
          appOfAppsPath(name, this.options.managementCluster),
          registration.defaultBranch,
        );
        if (result.merged) {
          base = await api.clusters.patchMetadata(name, {
            annotations: {
              [REGISTERED_FILES_ANNOTATION]: plan.publish.filesHash,
            },
          });
        }
        const where = result.pullRequest?.url ?? result.url;
        logger.info(
          result.merged
            ? `infrared: cluster ${name} registered in the gitops repo (${where})`
            : `infrared: cluster ${name}: the gitops pull request is ${result.state} (${where})`,
        );
      } catch (e) {
        status = completeRegistration(
          status,
          cluster,
          { error: e as Error },
          now(),
          appOfAppsPath(name, this.options.managementCluster),
        );
        logger.warn(
          `infrared: registering cluster ${name} in the gitops repo failed: ${
            (e as Error).message
          }`,
        );
      }
    }
    if (await this.writeStatus(base, status)) counters.statusWrites++;
  }

  /** Writes the owned part of the status when it differs; re-reads and retries on a conflict. */
  private async writeStatus(
    cluster: ClusterResource,
    desired: ClusterStatus,
  ): Promise<boolean> {
    const { api } = this.options;
    return retryOnConflict(async attempt => {
      const current =
        attempt === 1 ? cluster : await api.clusters.get(cluster.metadata.name);
      if (!current || current.metadata.deletionTimestamp) return false;
      if (!statusChanged(current.status, desired)) return false;
      try {
        await api.clusters.replaceStatus({
          ...current,
          status: mergeOwnedStatus(current.status, desired),
        });
      } catch (e) {
        if (isNotFound(e)) return false;
        throw e;
      }
      return true;
    });
  }

  private async apply(
    action: SecretAction,
    cluster: ClusterResource,
  ): Promise<void> {
    const { secrets } = this.options.api;
    switch (action.type) {
      case 'adoptKubeconfigSecret':
        await retryOnConflict(async attempt => {
          let { ownerReferences, resourceVersion } = action;
          if (attempt > 1) {
            const fresh = await secrets.get(action.namespace, action.name);
            if (!fresh) return;
            ownerReferences = ownerReferencesFor(
              fresh.metadata.ownerReferences,
              cluster,
            );
            resourceVersion = fresh.metadata.resourceVersion;
          }
          await secrets.patchMetadata(
            action.namespace,
            action.name,
            { labels: action.labels, ownerReferences },
            resourceVersion,
          );
        });
        return;
      case 'createArgoSecret':
        try {
          await secrets.create(action.secret);
        } catch (e) {
          // It exists without our label (edited by hand): replace it like an edited one.
          if (!isAlreadyExists(e)) throw e;
          await this.replaceArgoSecret(action.secret, cluster);
        }
        return;
      case 'replaceArgoSecret':
        try {
          await secrets.replace(action.secret);
        } catch (e) {
          if (!isConflict(e) && !isNotFound(e)) throw e;
          await this.replaceArgoSecret(action.secret, cluster);
        }
        return;
      case 'deleteArgoSecret':
        try {
          await secrets.delete(action.namespace, action.name, {
            uid: action.uid,
          });
        } catch (e) {
          if (!isNotFound(e) && !isConflict(e)) throw e;
        }
        return;
      default:
        throw new Error(`unknown action ${(action as SecretAction).type}`);
    }
  }

  /** Re-reads the Argo CD Secret and writes it right, retrying on conflicts and races. */
  private async replaceArgoSecret(
    target: SecretObject,
    cluster: ClusterResource,
  ): Promise<void> {
    const { secrets } = this.options.api;
    const namespace = target.metadata.namespace ?? ARGOCD_NAMESPACE;
    const name = target.metadata.name;
    const attempts = 4;
    for (let attempt = 1; ; attempt++) {
      try {
        const fresh = await secrets.get(namespace, name);
        if (!fresh) {
          const { resourceVersion: _rv, ...metadata } = target.metadata;
          await secrets.create({
            apiVersion: 'v1',
            kind: 'Secret',
            metadata,
            type: target.type,
            stringData: target.stringData,
          });
          return;
        }
        if (!isOurArgoSecret(fresh, cluster)) {
          // Made meanwhile by someone else: never taken over (seed 003).
          throw new ArgoSecretConflictError(
            `${describeArgoSecretManager(
              fresh.metadata,
            )}: Infrared never writes an Argo CD Secret it did not make`,
          );
        }
        const replacement = argoSecretReplacement(fresh, target, cluster);
        if (replacement) await secrets.replace(replacement);
        return;
      } catch (e) {
        if (e instanceof ArgoSecretConflictError) throw e;
        const retry = isConflict(e) || isAlreadyExists(e) || isNotFound(e);
        if (!retry || attempt >= attempts) throw e;
      }
    }
  }
}

import type { LoggerService } from '@backstage/backend-plugin-api';
import type { ClusterResource } from '@infrared-clusters/plugin-infrared-common';
import {
  forEachLimited,
  KeyedLock,
  type ClusterProber,
  type ManagementApi,
} from '@infrared-clusters/plugin-infrared-node';
import type { GitopsPublisher } from '../gitops';
import { ConnectionMemo } from './connectionMemo';
import { QuietClusters } from './quiet';
import {
  applySecretAction,
  createCluster,
  lostRace,
  writeStatus,
} from './apply';
import {
  describeRegistrations,
  listClustersAndSecrets,
  readSecret,
  RegistrationMemo,
  type Registrations,
} from './observe';
import {
  PassTally,
  type PassCounters,
  type ReconcilePassSummary,
} from './passSummary';
import {
  planClusterReconcile,
  planManagementCluster,
  probeTarget,
  secretReads,
  settleCluster,
  type ClusterOutcome,
  type ListedSecrets,
  type ObservedCluster,
  type PublishStep,
} from './plan';

export type { ReconcilePassSummary } from './passSummary';

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

/** Which Clusters a pass reconciles: all of them (LISTs), or the named ones (GETs). */
export interface ReconcileScope {
  /** Only these Clusters, read with GETs: the fast path after an API write. */
  names?: readonly string[];
  signal?: AbortSignal;
}

/** What one Cluster's work in a pass counts into, and how it gives its pass slot back early. */
interface PassSlot {
  counters: PassCounters;
  /** Called before the publish: waiting for the gitops repo takes no slot. Idempotent. */
  freeSlot: () => void;
}

/** Times a Cluster is read and planned again after a write lost a race, in one pass. */
const MAX_ATTEMPTS = 4;

/** A Cluster to reconcile, with what the pass's LISTs had for it (none: read it with GETs). */
interface Target {
  name: string;
  listed?: { cluster: ClusterResource; secrets: ListedSecrets };
}

/**
 * The executor. A pass reads (LISTs, or GETs for named Clusters, and GETs where the planner says
 * the LISTs miss something), probes, asks the planner (`./plan`) what to write, maps each action
 * to an API call and requeues a Cluster whose write lost a race: reads it again with GETs and plans
 * again, at most MAX_ATTEMPTS times. It decides nothing itself.
 */
export class ClusterReconciler {
  private readonly lock = new KeyedLock();
  private readonly connections = new ConnectionMemo();
  private readonly registrationMemo = new RegistrationMemo();
  private readonly quiet = new QuietClusters();
  /** When each Cluster was last read with GETs (a pass over named Clusters), in this process. */
  private readonly freshAt = new Map<string, number>();
  private readonly clock: () => Date;

  constructor(private readonly options: ClusterReconcilerOptions) {
    this.clock = options.clock ?? (() => new Date());
  }

  /** One pass over every Cluster: the scheduled task. */
  reconcileAll(signal?: AbortSignal): Promise<ReconcilePassSummary> {
    return this.reconcile({ signal });
  }

  /** One pass over one Cluster, with GETs: the same pass, after an API write. */
  reconcileOne(
    name: string,
    signal?: AbortSignal,
  ): Promise<ReconcilePassSummary> {
    return this.reconcile({ names: [name], signal });
  }

  /**
   * One pass. Each Cluster is reconciled by one run at a time in this process; across replicas
   * the writes are safe by resourceVersion and UID preconditions, AlreadyExists handling and the
   * publisher's idempotency. A pass over every Cluster skips those a pass over named Clusters had
   * in hand since it started: its LIST is older than what that one read.
   */
  async reconcile(scope: ReconcileScope = {}): Promise<ReconcilePassSummary> {
    const { api, logger, publisher, managementCluster } = this.options;
    const { names, signal } = scope;
    const tally = new PassTally(api.counter);
    const registrations = describeRegistrations(
      publisher,
      managementCluster,
      this.registrationMemo,
    );
    const targets: Target[] = names
      ? names.map(name => ({ name }))
      : await this.listTargets();
    // A Cluster gives its slot back when it reaches its publish, so the registrations of a whole
    // pass wait for the publisher together and leave as a few batches (issue 25: a pass over 1,000
    // Clusters made with kubectl made 63 pull requests while each publish held one of 16 slots).
    const running: Promise<void>[] = [];
    await forEachLimited(
      targets,
      this.options.concurrency ?? 16,
      target =>
        new Promise<void>(freeSlot => {
          const { name } = target;
          if (!names && this.handledSince(name, tally.started)) {
            tally.skipped++;
            freeSlot();
            return;
          }
          const work = this.lock
            .run(name, () =>
              this.reconcileCluster(
                target,
                registrations,
                { counters: tally.counters, freeSlot },
                signal,
              ),
            )
            .catch(e => {
              tally.counters.failed++;
              logger.warn(
                `infrared: reconciling cluster ${name} failed: ${
                  (e as Error).message
                }`,
              );
            })
            .finally(freeSlot);
          running.push(work);
        }),
      signal,
    );
    await Promise.all(running);
    return tally.summary(targets.length);
  }

  private handledSince(name: string, started: number): boolean {
    return this.lock.busy(name) || (this.freshAt.get(name) ?? 0) >= started;
  }

  /** Every Cluster from the LISTs, with the management cluster made first when the planner says. */
  private async listTargets(): Promise<Target[]> {
    const { api, logger, managementCluster } = this.options;
    const { clusters, secrets } = await listClustersAndSecrets(api);
    const management = planManagementCluster(clusters, managementCluster);
    if (management.warning) logger.warn(management.warning);
    if (management.create) {
      const made = await createCluster(api.clusters, management.create);
      if (made) {
        logger.info(
          `infrared: created management Cluster ${managementCluster}`,
        );
        clusters.push(made);
      }
    }
    return clusters.map(cluster => ({
      name: cluster.metadata.name,
      listed: { cluster, secrets },
    }));
  }

  /** Reads, plans and writes one Cluster; again from GETs while a write loses a race. */
  private async reconcileCluster(
    target: Target,
    registrations: Promise<Registrations>,
    pass: PassSlot,
    signal?: AbortSignal,
  ): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      const read = attempt === 1 ? target : { name: target.name };
      const observed = await this.observe(read, registrations, signal);
      if (!observed) return;
      const canRequeue = attempt < MAX_ATTEMPTS;
      if (await this.execute(observed, pass, canRequeue)) return;
    }
  }

  /** What the planner needs about one Cluster: the Cluster, its Secrets, the probe's answer. */
  private async observe(
    target: Target,
    registrations: Promise<Registrations>,
    signal?: AbortSignal,
  ): Promise<ObservedCluster | undefined> {
    const { api, prober } = this.options;
    if (!target.listed) this.freshAt.set(target.name, Date.now());
    const cluster =
      target.listed?.cluster ?? (await api.clusters.get(target.name));
    if (!cluster) {
      this.connections.forget(target.name);
      this.registrationMemo.forget(target.name);
      this.quiet.forget(target.name);
      return undefined;
    }
    const reads = secretReads(cluster, target.listed?.secrets);
    const [kubeconfigSecret, argoSecret, registration] = await Promise.all([
      readSecret(api.secrets, reads.kubeconfigSecret),
      readSecret(api.secrets, reads.argoSecret),
      registrations,
    ]);
    const connection = this.connections.resolve(cluster, kubeconfigSecret);
    const probeWith = probeTarget(cluster, connection);
    const probe = probeWith && (await prober.probe(probeWith, signal));
    if (signal?.aborted) return undefined;
    return {
      cluster,
      connection,
      kubeconfigSecret,
      argoSecret,
      probe,
      registration: registration(cluster.metadata.name),
      now: this.clock().toISOString(),
    };
  }

  /**
   * Plans one observed Cluster and carries the plan out: the Secret actions, the publish, then
   * what `settleCluster` makes of their outcome. Resolves false when a write lost a race and the
   * Cluster should be read again (only while `canRequeue`; after that it counts as refused).
   */
  private async execute(
    observed: ObservedCluster,
    { counters, freeSlot }: PassSlot,
    canRequeue: boolean,
  ): Promise<boolean> {
    const { api, logger } = this.options;
    const name = observed.cluster.metadata.name;
    if (this.quiet.unchanged(observed)) return true;
    const plan = planClusterReconcile(observed);
    if (plan.skipped) return true;

    const outcome: ClusterOutcome = {};
    for (const action of plan.actions) {
      try {
        await applySecretAction(api.secrets, action);
        counters.secretWrites++;
      } catch (e) {
        if (canRequeue && lostRace(e)) return false;
        const message = (e as Error).message;
        logger.warn(`infrared: cluster ${name}: ${action.type}: ${message}`);
        if ('onRefused' in action) outcome.refused ??= { action, message };
      }
    }
    // A refused write with onRefused stops the registration: nothing is published after it.
    if (plan.publish && !outcome.refused) {
      freeSlot();
      outcome.published = await this.publish(name, plan.publish);
      if ('result' in outcome.published) counters.published++;
    }

    const settled = settleCluster(observed, plan, outcome);
    let cluster = observed.cluster;
    if (settled.annotations) {
      cluster = await api.clusters.patchMetadata(name, {
        annotations: settled.annotations,
      });
    }
    const statusWritten = await writeStatus(
      api.clusters,
      cluster,
      settled.status,
    );
    if (statusWritten) counters.statusWrites++;
    this.quiet.record(
      observed,
      !plan.actions.length &&
        !plan.publish &&
        !settled.annotations &&
        !statusWritten,
    );
    return true;
  }

  private async publish(
    name: string,
    step: PublishStep,
  ): Promise<NonNullable<ClusterOutcome['published']>> {
    const { publisher, logger } = this.options;
    try {
      const result = await publisher.publish(
        step.change,
        step.pending ? { pending: step.pending } : undefined,
      );
      const where = result.pullRequest?.url ?? result.url;
      logger.info(
        result.merged
          ? `infrared: cluster ${name} registered in the gitops repo (${where})`
          : `infrared: cluster ${name}: the gitops pull request is ${result.state} (${where})`,
      );
      return { result };
    } catch (e) {
      logger.warn(
        `infrared: registering cluster ${name} in the gitops repo failed: ${
          (e as Error).message
        }`,
      );
      return { error: e as Error };
    }
  }
}

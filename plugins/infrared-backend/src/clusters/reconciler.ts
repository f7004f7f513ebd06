import type { LoggerService } from '@backstage/backend-plugin-api';
import {
  forEachLimited,
  KeyedLock,
  type ClusterProber,
  type ManagementApi,
} from '@infrared-clusters/infrared-kube';
import type { ClusterResource } from '@infrared-clusters/plugin-infrared-common';
import type { GitopsPublisher } from '../gitops';
import { leftToFastPath } from './accepted';
import { ConnectionMemo } from './connectionMemo';
import { QuietClusters } from './quiet';
import { createCluster, executePlan } from './apply';
import { readPassWatches, type PassWatches } from './passWatches';
import {
  listClustersAndSecrets,
  observeCluster,
  RegistrationMemo,
  type PassRepo,
  type Target,
} from './observe';
import {
  PassTally,
  type PassCounters,
  type ReconcilePassSummary,
} from './passSummary';
import { planCluster, planManagementCluster } from './plan';

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
  /**
   * What a pass over every Cluster reads instead of its three LISTs (issue 25: CPU at rest); it
   * LISTs while one of them has not synced or is broken.
   */
  watches?: PassWatches;
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

/**
 * The pass, read straight down: for each Cluster `observeCluster` (./observe.ts: every read),
 * `planCluster` (./plan: every decision, pure), `executePlan` (./apply.ts: every write, then the
 * status). A Cluster whose write lost a race is read again with GETs and planned again, at most
 * MAX_ATTEMPTS times. It decides nothing itself.
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
    // described by the pass's first observation, not before: reads are observeCluster's
    const repo: PassRepo = {
      publisher,
      managementCluster,
      memo: this.registrationMemo,
    };
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
          if (!names && this.handledElsewhere(target, tally.started)) {
            tally.skipped++;
            freeSlot();
            return;
          }
          const work = this.lock
            .run(name, () =>
              this.reconcileCluster(
                target,
                repo,
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

  /**
   * A pass over every Cluster skips one a pass over named Clusters had in hand since it started
   * (this process), and one a replica's API accepted just now: that replica's fast path has it.
   * Once this process's own fast path has read it (`freshAt`), that fast path is done (the lock is
   * free), so nothing is left to wait for: a pass right after it sees what changed since.
   */
  private handledElsewhere(target: Target, started: number): boolean {
    const { name, listed } = target;
    return (
      this.lock.busy(name) ||
      (this.freshAt.get(name) ?? 0) >= started ||
      (!!listed &&
        !this.freshAt.has(name) &&
        leftToFastPath(listed.cluster, this.clock()))
    );
  }

  /**
   * Every Cluster from the watches (else the LISTs), with the management cluster made first when
   * the planner says. What this process kept of a Cluster no longer there is forgotten.
   */
  private async listTargets(): Promise<Target[]> {
    const { api, logger, managementCluster } = this.options;
    const { clusters, secrets } =
      readPassWatches(this.options.watches) ??
      (await listClustersAndSecrets(api));
    this.forgetAllBut(clusters);
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
    repo: PassRepo,
    { counters, freeSlot }: PassSlot,
    signal?: AbortSignal,
  ): Promise<void> {
    const { api, prober, publisher, logger } = this.options;
    for (let attempt = 1; ; attempt++) {
      const read = attempt === 1 ? target : { name: target.name };
      if (!read.listed) this.freshAt.set(read.name, Date.now());
      const observed = await observeCluster(read, {
        api,
        prober,
        connections: this.connections,
        repo,
        clock: this.clock,
        signal,
      });
      if (!observed) {
        if (!signal?.aborted) this.forget(target.name);
        return;
      }
      if (this.quiet.unchanged(observed)) return;
      const plan = planCluster(observed);
      if (plan.skipped) return;
      const done = await executePlan(observed, plan, {
        api,
        publisher,
        logger,
        counters,
        freeSlot,
        canRequeue: attempt < MAX_ATTEMPTS,
      });
      if (done === 'requeue') continue;
      this.quiet.record(observed, done.wroteNothing);
      return;
    }
  }

  /** Forgets what this process kept of the Clusters not in a pass's read of every Cluster. */
  private forgetAllBut(clusters: readonly ClusterResource[]): void {
    const names = new Set(clusters.map(c => c.metadata.name));
    const kept = [
      ...this.connections.names(),
      ...this.registrationMemo.names(),
      ...this.quiet.names(),
    ];
    for (const name of kept) {
      if (!names.has(name) && !this.lock.busy(name)) this.forget(name);
    }
  }

  /** Forgets what this process kept of a Cluster that is gone. */
  private forget(name: string): void {
    this.connections.forget(name);
    this.registrationMemo.forget(name);
    this.quiet.forget(name);
    this.freshAt.delete(name);
  }
}

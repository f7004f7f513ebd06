import { setTimeout as delay } from 'node:timers/promises';
import type {
  LoggerService,
  SchedulerService,
} from '@backstage/backend-plugin-api';
import { KeyedLock, type KubeClient } from '@infrared-clusters/infrared-kube';
import {
  LEASE_DEFAULTS,
  LeaseElector,
  PendingScope,
  RegistrarWatcher,
  registrarLeaseName,
  runRegistrarPass,
  secretDataCacheFor,
  type LeaseElectorOptions,
  type RegistrarApi,
  type RegistrarMetrics,
  type RegistrarOptions,
  type RegistrarPassReport,
  type RegistrarScope,
} from '@infrared-clusters/infrared-registrar';

import type { RegistrarStatus } from './status';

/** A kubeconfig as infrared-kube loads it (@kubernetes/client-node's KubeConfig). */
export type KubeConfig = KubeClient['kubeConfig'];

/** The scheduled task's id. */
export const REGISTRAR_TASK_ID = 'infrared-registrar';

/** Watch-driven full in-process passes start at least this far apart (as the CLI's). */
const MIN_WATCH_PASS_GAP_MS = 1_000;
/** Scoped in-process passes (a few requests each) start at least this far apart (as the CLI's). */
const MIN_SCOPED_PASS_GAP_MS = 100;

export type LeaderElectionOptions =
  | false
  | Partial<
      Pick<
        LeaseElectorOptions,
        | 'name'
        | 'identity'
        | 'leaseDurationMs'
        | 'renewDeadlineMs'
        | 'retryPeriodMs'
      >
    >;

export interface RegistrarReplicaDeps {
  api: RegistrarApi;
  options: RegistrarOptions;
  logger: LoggerService;
  scheduler: SchedulerService;
  metrics: RegistrarMetrics;
  /** The management cluster's client (the Lease); none: no leader election. */
  client?: KubeClient;
  /** Where the watches connect; none: no watches, the schedule alone. */
  watchConfig?: KubeConfig;
  leaderElection?: LeaderElectionOptions;
  /** Keeps each pass's outcome per child, for the Clusters page. */
  status?: RegistrarStatus;
  /** After each pass that was not aborted (the children's gitops files); its errors are logged. */
  afterPass?: (report: RegistrarPassReport) => Promise<void>;
  /**
   * The one-installation rule (installation/): while it does not allow, no pass runs and the
   * registrar's Lease is neither sought nor kept, so the installation that manages the management
   * cluster holds it.
   */
  gate?: RegistrarGate;
}

/** What the registrar needs of the installation guard. */
export interface RegistrarGate {
  allows(): boolean;
  onChange(listener: (allowed: boolean) => void): void;
}

/** Waits `ms`, or less when `signal` aborts (resolves either way). */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return delay(ms, undefined, { signal }).catch(() => undefined);
}

/**
 * LeaseElector.acquire with whether each attempt got an answer from the API server (a live other
 * holder counts as an answer: this replica then leaves passes to it).
 */
async function acquireTracked(
  elector: LeaseElector,
  signal: AbortSignal,
  retryMs: number,
  answered: (error?: unknown) => void,
  gate?: RegistrarGate,
): Promise<boolean> {
  while (!signal.aborted) {
    if (gate && !gate.allows()) {
      await sleep(retryMs, signal);
      continue;
    }
    try {
      const held = await elector.tryAcquireOrRenew(signal);
      answered();
      if (held) return true;
    } catch (e) {
      if (signal.aborted) break;
      answered(e);
    }
    await sleep(retryMs, signal);
  }
  return false;
}

/**
 * The registrar in one backend replica: its passes (one at a time, scheduled or in-process), its
 * watches, and its part in leader election. The Lease holder passes in-process on a change and
 * keeps the full resync itself; another replica, while it sees a live holder, leaves passes to it
 * (its scheduled runs skip), so two replicas never pass at once. Without a working Lease (RBAC,
 * API errors) the schedule alone decides who passes, and a change triggers the scheduled task.
 */
export class RegistrarReplica {
  last?: RegistrarPassReport;
  passes = 0;
  private readonly stopAll = new AbortController();
  /** One pass at a time in this replica: the scheduled task and the in-process passes share it. */
  private readonly lock = new KeyedLock();
  private readonly elector?: LeaseElector;
  private readonly watcher?: RegistrarWatcher;
  /** The Lease answered at its last attempt (held by us or by a live other replica). */
  private leaseWorking = false;
  private leading?: AbortController;
  private resyncTimer?: ReturnType<typeof setTimeout>;
  /** The scheduled task runs here now; a change meanwhile asks for another run after it. */
  private running = false;
  private again = false;
  private readonly localPending = new PendingScope();
  private localLoop?: Promise<void>;
  private lastLocalStart = 0;
  private electing?: Promise<void>;

  constructor(private readonly deps: RegistrarReplicaDeps) {
    const { client, options, watchConfig, leaderElection, logger } = deps;
    this.elector =
      watchConfig && client && leaderElection !== false
        ? new LeaseElector(client, {
            namespace: options.targetNamespace,
            name: registrarLeaseName(options.labelPrefix, options.managedBy),
            logger,
            ...(leaderElection || {}),
          })
        : undefined;
    // another installation manages the management cluster: leave the registrar's Lease to it
    deps.gate?.onChange(allowed => {
      if (!allowed) this.leading?.abort();
    });
    const cache = secretDataCacheFor(deps.api);
    this.watcher = watchConfig
      ? new RegistrarWatcher({
          kubeConfig: watchConfig,
          options,
          logger,
          signal: this.stopAll.signal,
          known: (namespace, name, rv) => cache.has(namespace, name, rv),
          onChange: (reason, scope) => {
            logger.debug(`infrared: registrar change seen (${reason})`);
            if (this.elector?.isLeader) this.requestLocalPass(reason, scope);
            else this.trigger();
          },
        })
      : undefined;
  }

  get leaseDescription(): string | undefined {
    return this.elector?.description;
  }

  leadership(): 'leader' | 'follower' | 'none' {
    if (this.elector?.isLeader) return 'leader';
    return this.elector && this.leaseWorking ? 'follower' : 'none';
  }

  private async pass(
    signal: AbortSignal,
    scope?: RegistrarScope,
  ): Promise<void> {
    const { api, options, logger, metrics, gate } = this.deps;
    if (gate && !gate.allows()) return;
    const last = await runRegistrarPass(api, options, {
      logger,
      metrics,
      signal,
      scope,
    });
    this.last = last;
    this.passes++;
    this.deps.status?.record(last);
    // A scoped pass that wrote nothing changed no child's files (full passes retry failures).
    const wrote = !last.scope || last.writes > 0;
    if (this.deps.afterPass && !last.aborted && !last.dryRun && wrote) {
      await this.deps
        .afterPass(last)
        .catch(e =>
          this.deps.logger.warn(`infrared: after the registrar pass: ${e}`),
        );
    }
    if (this.watcher && last.resourceVersion) {
      this.watcher.setManaged(last.managedNamespaces);
      this.watcher.start(last.resourceVersion);
    }
    if (this.elector?.isLeader && !last.scope) {
      // The holder keeps the full resync itself, since the others' scheduled runs skip.
      clearTimeout(this.resyncTimer);
      this.resyncTimer = setTimeout(
        () => this.requestLocalPass('resync'),
        options.intervalMs,
      );
      this.resyncTimer.unref?.();
    }
  }

  private locked(fn: () => Promise<void>): Promise<void> {
    return this.lock.run('pass', fn);
  }

  /** A change without the Lease: the scheduled task now (still one replica at a time). */
  private trigger(): void {
    if (this.running) {
      this.again = true;
      return;
    }
    this.deps.scheduler.triggerTask(REGISTRAR_TASK_ID).catch(e => {
      // Running on another replica (ConflictError): that pass may have read before the change.
      this.again = true;
      this.deps.logger.debug(`infrared: registrar trigger deferred: ${e}`);
    });
  }

  /**
   * In-process passes on the Lease holder: coalesced, at most one in flight; scoped to what changed
   * (a full one when any change asks for it: `scope` none), full ones a second apart at most.
   */
  private requestLocalPass(reason: string, scope?: RegistrarScope): void {
    this.localPending.add(scope);
    if (this.localLoop) return;
    this.localLoop = this.localPasses(reason).finally(() => {
      this.localLoop = undefined;
    });
  }

  private async localPasses(reason: string): Promise<void> {
    const stop = this.stopAll.signal;
    while (this.localPending.pending && !stop.aborted) {
      const gap = this.localPending.isFull
        ? MIN_WATCH_PASS_GAP_MS
        : MIN_SCOPED_PASS_GAP_MS;
      const wait = this.lastLocalStart + gap - Date.now();
      if (wait > 0) await sleep(wait, stop);
      if (stop.aborted) break;
      const scope = this.localPending.take();
      if (!this.elector?.isLeader) {
        this.trigger();
        break;
      }
      this.lastLocalStart = Date.now();
      const signal = this.leading?.signal ?? stop;
      await this.locked(() => this.pass(signal, scope)).catch(e =>
        this.deps.logger.warn(
          `infrared: registrar in-process pass (${reason}) failed: ${e}`,
        ),
      );
    }
  }

  /** Starts contending for the Lease (retried every retry period), when there is one. */
  startElection(): void {
    if (this.elector) this.electing = this.elect(this.elector);
  }

  private async elect(elector: LeaseElector): Promise<void> {
    const { logger, leaderElection } = this.deps;
    const retryMs =
      (leaderElection && leaderElection.retryPeriodMs) ||
      LEASE_DEFAULTS.retryPeriodMs;
    // leaseWorking follows whether the API server answered.
    let errorLogged = false;
    const answered = (error?: unknown) => {
      this.leaseWorking = !error;
      if (!error) errorLogged = false;
      else if (!errorLogged) {
        errorLogged = true;
        logger.warn(
          `infrared: registrar Lease ${elector.description} unavailable (the schedule alone passes meanwhile): ${error}`,
        );
      }
    };
    const stop = this.stopAll.signal;
    while (!stop.aborted) {
      const got = await acquireTracked(
        elector,
        stop,
        retryMs,
        answered,
        this.deps.gate,
      );
      if (!got) break;
      this.leaseWorking = true;
      const leading = (this.leading = new AbortController());
      logger.info(
        `infrared: registrar Lease ${elector.description} held; passing in-process on changes`,
      );
      this.requestLocalPass('leader');
      const result = await elector.hold(
        AbortSignal.any([stop, leading.signal]),
      );
      leading.abort();
      clearTimeout(this.resyncTimer);
      if (result === 'stopped' && !stop.aborted) {
        await elector
          .release()
          .catch(e =>
            logger.warn(
              `infrared: could not release the registrar Lease: ${e}`,
            ),
          );
      }
      if (result === 'lost') {
        this.leaseWorking = false;
        logger.warn(
          `infrared: registrar Lease ${elector.description} lost; the schedule passes until it is held again`,
        );
      }
    }
  }

  /** The scheduled task's run: a pass, unless another replica holds the Lease. */
  async scheduled(signal: AbortSignal): Promise<void> {
    if (this.elector && !this.elector.isLeader && this.leaseWorking) {
      this.deps.logger.debug(
        `infrared: registrar pass skipped: another replica holds the Lease ${this.elector.description}`,
      );
      return;
    }
    this.running = true;
    this.again = false;
    try {
      await this.locked(() => this.pass(signal));
    } finally {
      this.running = false;
    }
    if (this.again && !this.stopAll.signal.aborted) {
      this.again = false;
      // After this run is released: a trigger now would meet it still running.
      setTimeout(() => this.trigger(), 0).unref?.();
    }
  }

  /** Stops the watches and leader election, releasing a held Lease. */
  async stop(): Promise<void> {
    this.stopAll.abort();
    clearTimeout(this.resyncTimer);
    await this.electing;
    await this.localLoop;
    await this.elector
      ?.release()
      .catch(e =>
        this.deps.logger.warn(
          `infrared: could not release the registrar Lease: ${e}`,
        ),
      );
  }
}

import { setTimeout as delay } from 'node:timers/promises';
import type {
  LoggerService,
  RootConfigService,
  SchedulerService,
} from '@backstage/backend-plugin-api';
import {
  KubeClient,
  KubeRegistrarApi,
  LEASE_DEFAULTS,
  LeaseElector,
  RegistrarMetrics,
  RegistrarWatcher,
  registrarLeaseName,
  runRegistrarPass,
  secretDataCacheFor,
  type LeaseElectorOptions,
  type RegistrarApi,
  type RegistrarLogger,
  type RegistrarMeter,
  type RegistrarOptions,
  type RegistrarPassReport,
} from '@infrared-clusters/plugin-infrared-node';
import { createManagementClient } from '../kube';
import { readRegistrarConfig } from './config';

/** A kubeconfig as -node loads it (@kubernetes/client-node's KubeConfig). */
type KubeConfig = KubeClient['kubeConfig'];

/** The scheduled task's id. */
export const REGISTRAR_TASK_ID = 'infrared-registrar';

export interface RegisterRegistrarTaskOptions {
  config: RootConfigService;
  logger: LoggerService;
  scheduler: SchedulerService;
  /**
   * The management cluster's client. Default: `infrared.managementCluster.kubeconfigPath`, else
   * the pod's service account.
   */
  client?: KubeClient;
  /** Replaces the API entirely (tests). */
  api?: RegistrarApi;
  /**
   * Where the watches connect (they need the kubeconfig itself, not a client). Default: the same
   * management cluster as `client`'s default (`infrared.managementCluster.kubeconfigPath`, else the
   * pod's service account), unless `api` replaces the API; `false`: no watches, the schedule alone.
   */
  kubeConfig?: KubeConfig | false;
  /** Stops the watches on shutdown (Backstage's lifecycle service). */
  lifecycle?: { addShutdownHook(hook: () => void | Promise<void>): void };
  /**
   * Where metrics go. Default: the global OpenTelemetry meter provider (`@opentelemetry/api`),
   * which Backstage's instrumentation exports; Backstage's alpha MetricsService fits too.
   */
  meter?: RegistrarMeter;
  /**
   * Leader election for watch-driven passes: the replica holding the Lease (in the target
   * namespace, named like the CLI's --leader-election-id default) passes in-process on a watch
   * event. Default: on when the client is the default or given (`client`), off when `api` replaces
   * the API without a `client`; `false`: off (a watch event triggers the scheduled task).
   */
  leaderElection?:
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
}

export interface RegistrarTask {
  taskId: string;
  options: RegistrarOptions;
  /** Runs a pass now, outside the schedule (still one replica at a time). */
  trigger(): Promise<void>;
  /** The last pass's report, for the API and tests. */
  lastReport(): RegistrarPassReport | undefined;
  /** Stops the watches and leader election, releasing a held Lease (the schedule stays Backstage's). */
  stop(): Promise<void>;
  /**
   * 'leader' while this replica holds the registrar's Lease (it passes in-process on a change),
   * 'follower' while another live replica holds it (this one does not pass), 'none' without a
   * working Lease (the schedule alone decides who passes).
   */
  leadership(): 'leader' | 'follower' | 'none';
  /** Passes this replica ran, scheduled and in-process (tests, bench). */
  passes(): number;
}

/** Watch-driven in-process passes start at least this far apart (as the CLI's). */
const MIN_WATCH_PASS_GAP_MS = 1_000;

/**
 * Reads `infrared.registrar` (throws on invalid values, naming the key) and, when enabled,
 * schedules the registrar as a `scope: 'global'` task `infrared-registrar` every `interval`: one
 * replica at a time, which is what the upstream project needs leader election for. Returns
 * undefined when disabled.
 */
export async function registerRegistrarTask(
  deps: RegisterRegistrarTaskOptions,
): Promise<RegistrarTask | undefined> {
  const { config, scheduler } = deps;
  const { enabled, options, warnings } = readRegistrarConfig(config);
  const logger = deps.logger.child({ task: REGISTRAR_TASK_ID });
  if (!enabled) {
    logger.debug('infrared: the child-cluster registrar is disabled');
    return undefined;
  }
  for (const w of warnings) logger.warn(w);
  // The management cluster as the kube service finds it (createManagementClient), unless `api`
  // replaces the API: the default client, and where the watches connect.
  const configured = deps.api ? undefined : createManagementClient(config);
  const configuredClient =
    configured && 'client' in configured ? configured.client : undefined;
  const client = deps.client ?? configuredClient;
  if (!client && configured && 'unavailable' in configured) {
    throw new Error(
      `infrared.registrar is enabled but ${configured.unavailable}`,
    );
  }
  const api = deps.api ?? new KubeRegistrarApi(client!);
  const metrics = new RegistrarMetrics(deps.meter);
  const registrarLogger: RegistrarLogger = logger;
  let last: RegistrarPassReport | undefined;
  let passCount = 0;
  const stopAll = new AbortController();

  // One pass at a time in this replica: the scheduled task and the in-process passes share it.
  let lock: Promise<void> = Promise.resolve();
  const locked = <T>(fn: () => Promise<T>): Promise<T> => {
    const run = lock.then(fn);
    lock = run.then(
      () => {},
      () => {},
    );
    return run;
  };

  let watchConfig: KubeConfig | undefined;
  if (deps.kubeConfig !== false) {
    watchConfig = deps.kubeConfig ?? configuredClient?.kubeConfig;
  }

  // Leader election (watch-driven passes only): the Lease holder passes in-process on a change;
  // another replica, while it sees a live holder, leaves passes to it (its scheduled runs skip), so
  // two replicas never pass at once. Without a working Lease (RBAC, API errors) the schedule alone
  // decides who passes, as before.
  const elector =
    watchConfig && client && deps.leaderElection !== false
      ? new LeaseElector(client, {
          namespace: options.targetNamespace,
          name: registrarLeaseName(options.labelPrefix, options.managedBy),
          logger: registrarLogger,
          ...(deps.leaderElection || {}),
        })
      : undefined;
  /** The Lease answered at its last attempt (held by us or by a live other replica). */
  let leaseWorking = false;
  const mayPass = () => !elector || elector.isLeader || !leaseWorking;

  // Watch-driven between scheduled passes. Without the Lease: a change triggers the task now
  // (still one replica at a time, through the scheduler); the schedule stays the full resync.
  let running = false;
  let again = false;
  const trigger = () => {
    if (running) {
      again = true;
      return;
    }
    scheduler.triggerTask(REGISTRAR_TASK_ID).catch(e => {
      // Running on another replica (ConflictError): that pass may have read before the change.
      again = true;
      logger.debug(`infrared: registrar trigger deferred: ${e}`);
    });
  };

  const late: { watcher?: RegistrarWatcher } = {};
  let leading: AbortController | undefined;
  let requestLocalPass: (reason: string) => void = () => {};
  let resyncTimer: ReturnType<typeof setTimeout> | undefined;
  const pass = async (signal: AbortSignal) => {
    last = await runRegistrarPass(api, options, {
      logger: registrarLogger,
      metrics,
      signal,
    });
    passCount++;
    if (late.watcher && last.resourceVersion) {
      late.watcher.setManaged(last.managedNamespaces);
      late.watcher.start(last.resourceVersion);
    }
    if (elector?.isLeader) {
      // The holder keeps the full resync itself, since the others' scheduled runs skip.
      clearTimeout(resyncTimer);
      resyncTimer = setTimeout(
        () => requestLocalPass('resync'),
        options.intervalMs,
      );
      resyncTimer.unref?.();
    }
  };

  // In-process passes on the Lease holder: coalesced, at most one in flight, one a second at most.
  let localPending = false;
  let localLoop: Promise<void> | undefined;
  let lastLocalStart = 0;
  requestLocalPass = (reason: string) => {
    localPending = true;
    if (localLoop) return;
    localLoop = (async () => {
      try {
        while (localPending && !stopAll.signal.aborted) {
          const wait = lastLocalStart + MIN_WATCH_PASS_GAP_MS - Date.now();
          if (wait > 0) await sleep(wait, stopAll.signal);
          if (stopAll.signal.aborted) break;
          localPending = false;
          if (!elector?.isLeader) {
            trigger();
            break;
          }
          lastLocalStart = Date.now();
          const signal = leading?.signal ?? stopAll.signal;
          await locked(() => pass(signal)).catch(e =>
            logger.warn(
              `infrared: registrar in-process pass (${reason}) failed: ${e}`,
            ),
          );
        }
      } finally {
        localLoop = undefined;
      }
    })();
  };

  const cache = secretDataCacheFor(api);
  late.watcher = watchConfig
    ? new RegistrarWatcher({
        kubeConfig: watchConfig,
        options,
        logger: registrarLogger,
        signal: stopAll.signal,
        known: (namespace, name, rv) => cache.has(namespace, name, rv),
        onChange: reason => {
          logger.debug(`infrared: registrar change seen (${reason})`);
          if (elector?.isLeader) requestLocalPass(reason);
          else trigger();
        },
      })
    : undefined;

  const retryMs =
    (deps.leaderElection && deps.leaderElection.retryPeriodMs) ||
    LEASE_DEFAULTS.retryPeriodMs;
  let electing: Promise<void> | undefined;
  if (elector) {
    // Retried every retry period; leaseWorking follows whether the API server answered.
    let errorLogged = false;
    const answered = (error?: unknown) => {
      leaseWorking = !error;
      if (!error) errorLogged = false;
      else if (!errorLogged) {
        errorLogged = true;
        logger.warn(
          `infrared: registrar Lease ${elector.description} unavailable (the schedule alone passes meanwhile): ${error}`,
        );
      }
    };
    electing = (async () => {
      const stop = stopAll.signal;
      while (!stop.aborted) {
        const got = await acquireTracked(elector, stop, retryMs, answered);
        if (!got) break;
        leaseWorking = true;
        leading = new AbortController();
        logger.info(
          `infrared: registrar Lease ${elector.description} held; passing in-process on changes`,
        );
        requestLocalPass('leader');
        const result = await elector.hold(
          AbortSignal.any([stop, leading.signal]),
        );
        leading.abort();
        clearTimeout(resyncTimer);
        if (result === 'lost') {
          leaseWorking = false;
          logger.warn(
            `infrared: registrar Lease ${elector.description} lost; the schedule passes until it is held again`,
          );
        }
      }
    })();
  }
  const stop = async () => {
    stopAll.abort();
    clearTimeout(resyncTimer);
    await electing;
    await localLoop;
    await elector
      ?.release()
      .catch(e =>
        logger.warn(`infrared: could not release the registrar Lease: ${e}`),
      );
  };
  deps.lifecycle?.addShutdownHook(stop);

  await scheduler.scheduleTask({
    id: REGISTRAR_TASK_ID,
    scope: 'global',
    frequency: { milliseconds: options.intervalMs },
    timeout: { milliseconds: Math.max(5 * 60_000, options.intervalMs) },
    fn: async signal => {
      if (!mayPass()) {
        logger.debug(
          `infrared: registrar pass skipped: another replica holds the Lease ${elector?.description}`,
        );
        return;
      }
      running = true;
      again = false;
      try {
        await locked(() => pass(signal));
      } finally {
        running = false;
      }
      if (again && !stopAll.signal.aborted) {
        again = false;
        // After this run is released: a trigger now would meet it still running.
        setTimeout(trigger, 0).unref?.();
      }
    },
  });
  logger.info(
    `infrared: child-cluster registrar scheduled every ${
      options.intervalMs / 1000
    }s (target namespace ${
      options.targetNamespace
    }, providers ${options.providers.map(p => p.name).join(', ')}${
      options.dryRun ? ', dry-run' : ''
    })`,
  );
  return {
    taskId: REGISTRAR_TASK_ID,
    options,
    trigger: () => scheduler.triggerTask(REGISTRAR_TASK_ID),
    lastReport: () => last,
    stop,
    leadership: () => {
      if (elector?.isLeader) return 'leader';
      return elector && leaseWorking ? 'follower' : 'none';
    },
    passes: () => passCount,
  };
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
): Promise<boolean> {
  while (!signal.aborted) {
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

/** Waits `ms`, or less when `signal` aborts (resolves either way). */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return delay(ms, undefined, { signal }).catch(() => undefined);
}

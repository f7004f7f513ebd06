import type {
  LoggerService,
  RootConfigService,
  SchedulerService,
} from '@backstage/backend-plugin-api';
import {
  isInCluster,
  KubeClient,
  kubeConfigFromFile,
  kubeConfigInCluster,
  KubeRegistrarApi,
  RegistrarMetrics,
  RegistrarWatcher,
  runRegistrarPass,
  secretDataCacheFor,
  type RegistrarApi,
  type RegistrarLogger,
  type RegistrarMeter,
  type RegistrarOptions,
  type RegistrarPassReport,
} from '@internal/plugin-infrared-node';
import { readManagementClusterConfig } from '../config';
import { readRegistrarConfig } from './config';

/** A kubeconfig as -node loads it (@kubernetes/client-node's KubeConfig). */
type KubeConfig = ReturnType<typeof kubeConfigFromFile>;

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
}

export interface RegistrarTask {
  taskId: string;
  options: RegistrarOptions;
  /** Runs a pass now, outside the schedule (still one replica at a time). */
  trigger(): Promise<void>;
  /** The last pass's report, for the API and tests. */
  lastReport(): RegistrarPassReport | undefined;
  /** Stops the watches (the schedule stays Backstage's). */
  stop(): void;
}

function defaultKubeConfig(config: RootConfigService): KubeConfig | undefined {
  const { kubeconfigPath } = readManagementClusterConfig(config);
  if (kubeconfigPath) return kubeConfigFromFile(kubeconfigPath);
  if (isInCluster()) return kubeConfigInCluster();
  return undefined;
}

function defaultClient(config: RootConfigService): KubeClient {
  const kubeConfig = defaultKubeConfig(config);
  if (kubeConfig) return new KubeClient(kubeConfig);
  throw new Error(
    'infrared.registrar is enabled but no management cluster is configured: set infrared.managementCluster.kubeconfigPath, or run the backend in a pod',
  );
}

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
  const api =
    deps.api ?? new KubeRegistrarApi(deps.client ?? defaultClient(config));
  const metrics = new RegistrarMetrics(deps.meter);
  const registrarLogger: RegistrarLogger = logger;
  let last: RegistrarPassReport | undefined;

  // Watch-driven between scheduled passes: a change the watches see triggers the task now (still
  // one replica at a time, through the scheduler); the schedule stays the full resync.
  const stopWatching = new AbortController();
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
  let watchConfig: KubeConfig | undefined;
  if (deps.kubeConfig !== false) {
    watchConfig =
      deps.kubeConfig ?? (deps.api ? undefined : defaultKubeConfig(config));
  }
  const cache = secretDataCacheFor(api);
  const watcher = watchConfig
    ? new RegistrarWatcher({
        kubeConfig: watchConfig,
        options,
        logger: registrarLogger,
        signal: stopWatching.signal,
        known: (namespace, name, rv) => cache.has(namespace, name, rv),
        onChange: reason => {
          logger.debug(`infrared: registrar change seen (${reason})`);
          trigger();
        },
      })
    : undefined;
  deps.lifecycle?.addShutdownHook(() => stopWatching.abort());

  await scheduler.scheduleTask({
    id: REGISTRAR_TASK_ID,
    scope: 'global',
    frequency: { milliseconds: options.intervalMs },
    timeout: { milliseconds: Math.max(5 * 60_000, options.intervalMs) },
    fn: async signal => {
      running = true;
      again = false;
      try {
        last = await runRegistrarPass(api, options, {
          logger: registrarLogger,
          metrics,
          signal,
        });
        if (watcher && last.resourceVersion) {
          watcher.setManaged(last.managedNamespaces);
          watcher.start(last.resourceVersion);
        }
      } finally {
        running = false;
      }
      if (again && !stopWatching.signal.aborted) {
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
    stop: () => stopWatching.abort(),
  };
}

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
  runRegistrarPass,
  type RegistrarApi,
  type RegistrarLogger,
  type RegistrarMeter,
  type RegistrarOptions,
  type RegistrarPassReport,
} from '@internal/plugin-infrared-node';
import { readManagementClusterConfig } from '../config';
import { readRegistrarConfig } from './config';

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
}

function defaultClient(config: RootConfigService): KubeClient {
  const { kubeconfigPath } = readManagementClusterConfig(config);
  if (kubeconfigPath) return new KubeClient(kubeConfigFromFile(kubeconfigPath));
  if (isInCluster()) return new KubeClient(kubeConfigInCluster());
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

  await scheduler.scheduleTask({
    id: REGISTRAR_TASK_ID,
    scope: 'global',
    frequency: { milliseconds: options.intervalMs },
    timeout: { milliseconds: Math.max(5 * 60_000, options.intervalMs) },
    fn: async signal => {
      last = await runRegistrarPass(api, options, {
        logger: registrarLogger,
        metrics,
        signal,
      });
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
  };
}

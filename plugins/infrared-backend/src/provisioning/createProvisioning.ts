import type {
  LifecycleService,
  LoggerService,
  RootConfigService,
  SchedulerService,
} from '@backstage/backend-plugin-api';
import type {
  KubeClient,
  ManagementApi,
  ProvisioningKubeApi,
} from '@infrared-clusters/infrared-kube';
import { readProvisioningConfig } from './config';
import { startTofuJobWatch } from './jobWatch';
import { ProvisioningReconciler } from './reconciler';
import { ProvisioningService } from './service';

/** The scheduled task that runs the OpenTofu Jobs of built Clusters. */
export const PROVISIONING_TASK_ID = 'infrared-provisioning';

export interface CreateProvisioningOptions {
  config: RootConfigService;
  logger: LoggerService;
  scheduler: SchedulerService;
  api: ManagementApi;
  kube: ProvisioningKubeApi;
  /** The repository root, for a template source given as a relative path. */
  rootDir?: string;
  /** Called after a built Cluster got its connection (the wiring triggers registration). */
  onRegistered?: (name: string) => void;
  /**
   * With `infrared.provisioning.watch` on: the management cluster's client the Jobs and Pods are
   * watched with (a change runs a pass here at once).
   */
  watchClient?: KubeClient;
  /** Stops the watch on shutdown. */
  lifecycle?: LifecycleService;
}

/**
 * Provisioning as one capability: the reconciler on a `scope: 'global'` scheduled task (every 15 s
 * by default), and the service the API delegates to, which starts a pass after each write.
 * Undefined when `infrared.provisioning.enabled` is false.
 */
export async function createProvisioning(
  options: CreateProvisioningOptions,
): Promise<ProvisioningService | undefined> {
  const { config, logger, scheduler } = options;
  const settings = readProvisioningConfig(config, options.rootDir);
  if (!settings.enabled) return undefined;
  const reconciler = new ProvisioningReconciler({
    api: options.api,
    kube: options.kube,
    logger,
    context: {
      templates: settings.templates,
      kubeconfigOutput: settings.kubeconfigOutput,
      namespace: settings.namespace,
      allow: settings.allow,
    },
    onRegistered: options.onRegistered,
  });
  const pass = async (signal?: AbortSignal) => {
    const summary = await reconciler.reconcile({ signal });
    logger.debug?.(
      `infrared: provisioning pass over ${summary.built} built clusters: ${summary.jobsCreated} Jobs created, ${summary.statusWrites} status writes, ${summary.requests} requests in ${summary.durationMs} ms`,
    );
  };
  await scheduler.scheduleTask({
    id: PROVISIONING_TASK_ID,
    scope: 'global',
    frequency: settings.interval,
    timeout: { minutes: 5 },
    fn: signal => pass(signal as AbortSignal),
  });
  const trigger = () =>
    scheduler
      .triggerTask(PROVISIONING_TASK_ID)
      .catch(e =>
        logger.debug?.(
          `infrared: could not trigger ${PROVISIONING_TASK_ID}: ${
            (e as Error).message
          }`,
        ),
      );
  // An API write (or, with the watch, a change of a Job or Pod) runs a pass here at once (the
  // scheduler looks for triggered global tasks only every few seconds) and triggers the task;
  // passes in this process do not overlap. A Job is never made twice by two passes: its name is
  // fixed, the second create is refused as AlreadyExists.
  const passNow = inProcessPasses(pass, logger);
  if (settings.watch && options.watchClient) {
    const watch = startTofuJobWatch({
      client: options.watchClient,
      namespace: settings.namespace,
      logger,
      onChange: () => passNow(),
    });
    options.lifecycle?.addShutdownHook(() => watch.stop());
  }
  return new ProvisioningService({
    api: options.api,
    kube: options.kube,
    logger,
    templates: settings.templates,
    namespace: settings.namespace,
    allow: settings.allow,
    runnerStatusFile: settings.runnerStatusFile,
    onChange: () => {
      trigger();
      passNow();
    },
  });
}

/** Runs `pass` at once, one at a time: requests made while one runs are merged into one more. */
function inProcessPasses(
  pass: () => Promise<void>,
  logger: LoggerService,
): () => void {
  let running: Promise<void> | undefined;
  let again = false;
  const passNow = (): void => {
    if (running) {
      again = true;
      return;
    }
    running = pass()
      .catch(e =>
        logger.warn(
          `infrared: provisioning pass failed: ${(e as Error).message}`,
        ),
      )
      .finally(() => {
        running = undefined;
        if (again) {
          again = false;
          passNow();
        }
      });
  };
  return passNow;
}

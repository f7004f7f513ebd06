import type {
  LoggerService,
  RootConfigService,
  SchedulerService,
} from '@backstage/backend-plugin-api';
import { readDurationFromConfig } from '@backstage/config';
import { DEFAULT_ZONE_PROJECT } from '@infrared-clusters/plugin-infrared-common';
import type {
  ClusterApi,
  KubeClient,
  PlacementKubeApi,
} from '@infrared-clusters/infrared-kube';
import type { GitopsPublisher } from '@infrared-clusters/plugin-infrared-node';
import { readManagementClusterConfig } from '../config';
import { ReleaseGate } from './gate';
import { GatePasses } from './gatePasses';
import { startGateWatch } from './gateWatch';
import { PlacementService } from './service';

/** The scheduled task that runs the release gate. */
export const RELEASE_GATE_TASK_ID = 'infrared-release-gate';

type Duration = ReturnType<typeof readDurationFromConfig>;

export interface PlacementConfig {
  /** `infrared.managementCluster.name`: where zones without a cluster run. */
  managementCluster: string;
  /** `infrared.placement.project`: the AppProject of zone Applications. Default products. */
  project: string;
  /** `infrared.placement.gateInterval`: time between release gate passes. Default 1 minute. */
  gateInterval: Duration;
  /** `infrared.placement.watch`: a change of the gate's inputs passes at once. Default false. */
  watch: boolean;
}

export function readPlacementConfig(
  config: RootConfigService,
): PlacementConfig {
  const key = 'infrared.placement.gateInterval';
  return {
    managementCluster: readManagementClusterConfig(config).name,
    project:
      config.getOptionalString('infrared.placement.project') ||
      DEFAULT_ZONE_PROJECT,
    gateInterval: config.has(key)
      ? readDurationFromConfig(config, { key })
      : { minutes: 1 },
    watch: config.getOptionalBoolean('infrared.placement.watch') ?? false,
  };
}

export interface CreatePlacementOptions {
  config: RootConfigService;
  logger: LoggerService;
  scheduler: SchedulerService;
  kube: PlacementKubeApi;
  clusters: Pick<ClusterApi, 'list'>;
  publisher: GitopsPublisher;
  /**
   * The management cluster's client the gate's watches connect with (Organizations, Products,
   * Clusters, Releases) when `infrared.placement.watch` is on: a change starts a pass in-process at
   * once. None: the schedule and the placement routes' writes alone start passes.
   */
  watchClient?: KubeClient;
  /** Stops the watches on shutdown. */
  lifecycle?: { addShutdownHook(hook: () => void | Promise<void>): void };
  /** The one-installation rule: no in-process pass while it does not allow. */
  installation?: { allows(): boolean };
}

/**
 * Placement as one capability: the release gate on a `scope: 'global'` scheduled task (every minute
 * by default, the full resync), a pass in-process within a fraction of a second of a change of its
 * inputs (the watches) or of a write of the placement routes, and the service those routes
 * delegate to.
 */
export async function createPlacement(
  options: CreatePlacementOptions,
): Promise<PlacementService> {
  return (await createPlacementParts(options)).service;
}

/** createPlacement, with the gate's passes and watches (tests). */
export async function createPlacementParts(options: CreatePlacementOptions) {
  const { config, logger, scheduler, kube, clusters } = options;
  const settings = readPlacementConfig(config);
  const gate = new ReleaseGate({
    kube,
    clusters,
    publisher: options.publisher,
    managementCluster: settings.managementCluster,
    project: settings.project,
    logger,
  });
  const passes = new GatePasses({
    gate,
    logger,
    allows: options.installation && (() => options.installation!.allows()),
  });
  await scheduler.scheduleTask({
    id: RELEASE_GATE_TASK_ID,
    scope: 'global',
    frequency: settings.gateInterval,
    timeout: { minutes: 5 },
    fn: async signal => {
      const pass = await passes.run(signal);
      if (pass.releases) {
        logger.debug?.(
          `infrared: release gate: ${pass.releases} promoting releases, ${pass.published} changes published, ${pass.statusWrites} statuses written, ${pass.requests} requests in ${pass.durationMs} ms`,
        );
      }
    },
  });
  const watch =
    settings.watch && options.watchClient
      ? startGateWatch({
          client: options.watchClient,
          logger,
          onChange: kind => passes.request(`${kind} changed`),
        })
      : undefined;
  options.lifecycle?.addShutdownHook(async () => {
    passes.stop();
    await watch?.stop();
  });
  const service = new PlacementService({
    kube,
    clusters,
    managementCluster: settings.managementCluster,
    project: settings.project,
    logger,
    // in-process: the scheduler's trigger of a global task waits for its next work check (5 s)
    onChange: () => passes.request('placement write'),
  });
  return { service, passes, watch };
}

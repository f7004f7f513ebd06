import type {
  LoggerService,
  RootConfigService,
  SchedulerService,
} from '@backstage/backend-plugin-api';
import { readDurationFromConfig } from '@backstage/config';
import { DEFAULT_ZONE_PROJECT } from '@infrared-clusters/plugin-infrared-common';
import type {
  ClusterApi,
  GitopsPublisher,
  PlacementKubeApi,
} from '@infrared-clusters/plugin-infrared-node';
import { readManagementClusterConfig } from '../config';
import { ReleaseGate } from './gate';
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
  };
}

export interface CreatePlacementOptions {
  config: RootConfigService;
  logger: LoggerService;
  scheduler: SchedulerService;
  kube: PlacementKubeApi;
  clusters: Pick<ClusterApi, 'list'>;
  publisher: GitopsPublisher;
}

/**
 * Placement as one capability: the release gate on a `scope: 'global'` scheduled task (every minute
 * by default), and the service the placement routes delegate to, which starts a gate pass after
 * every write.
 */
export async function createPlacement(
  options: CreatePlacementOptions,
): Promise<PlacementService> {
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
  await scheduler.scheduleTask({
    id: RELEASE_GATE_TASK_ID,
    scope: 'global',
    frequency: settings.gateInterval,
    timeout: { minutes: 5 },
    fn: async signal => {
      const pass = await gate.pass(signal);
      if (pass.releases) {
        logger.debug?.(
          `infrared: release gate: ${pass.releases} promoting releases, ${pass.published} changes published, ${pass.statusWrites} statuses written, ${pass.requests} requests in ${pass.durationMs} ms`,
        );
      }
    },
  });
  return new PlacementService({
    kube,
    clusters,
    managementCluster: settings.managementCluster,
    project: settings.project,
    logger,
    onChange: () => {
      scheduler
        .triggerTask(RELEASE_GATE_TASK_ID)
        .catch(e =>
          logger.debug?.(
            `infrared: could not start a release gate pass: ${e.message}`,
          ),
        );
    },
  });
}

import type {
  LifecycleService,
  LoggerService,
  RootConfigService,
  SchedulerService,
} from '@backstage/backend-plugin-api';
import { durationToMilliseconds } from '@backstage/types';
import type { DiscoveredClustersOptions } from '@infrared-clusters/infrared-registrar';
import type {
  ClusterProber,
  ManagementApi,
} from '@infrared-clusters/infrared-kube';
import type { InfraredClusterChange } from '@infrared-clusters/plugin-infrared-node';
import { BatchingPublisher, type GitopsPublisher } from '../gitops';
import { ClusterService } from './ClusterService';
import {
  DiscoveredList,
  type RegistrarPasses,
  type WatchedDiscovered,
} from './discoveredList';
import { ClusterListCache, type WatchedClusters } from './listCache';
import { readClustersConfig } from './config';
import type { PassWatches } from './passWatches';
import { ClusterReconciler, type ReconcileScope } from './reconciler';
import { ReconcileTrigger } from './trigger';

/** The scheduled task that reconciles every Cluster. */
export const CLUSTERS_RECONCILE_TASK_ID = 'infrared-clusters-reconcile';

export interface CreateClustersOptions {
  config: RootConfigService;
  logger: LoggerService;
  scheduler: SchedulerService;
  api: ManagementApi;
  prober: ClusterProber;
  publisher: GitopsPublisher;
  /**
   * Where the registrar's child-cluster Secrets are, to list them beside the Clusters; absent when
   * the registrar does not run. The wiring passes it, so clusters/ never reads registrar/ config.
   */
  discovered?: DiscoveredClustersOptions;
  /**
   * Adds what the registrar's last pass knows to the listed children (and the children it skipped
   * without a Secret); the wiring passes it.
   */
  passes?: RegistrarPasses;
  /** The registrar's Secrets a watch keeps current: the REST list reads them instead of a LIST. */
  watchedDiscovered?: WatchedDiscovered;
  /** Closes the batching publisher when the backend stops. */
  lifecycle?: Pick<LifecycleService, 'addShutdownHook'>;
  /** The Clusters a watch keeps current: the REST list reads them instead of sending a LIST. */
  watchedClusters?: WatchedClusters;
  /** The watches the scheduled pass reads instead of its LISTs (it LISTs while one is not healthy). */
  passWatches?: PassWatches;
  /**
   * Told of each API write (`registered`, `removed`) and when the pass that follows a registration
   * is done (`reconciled`); the wiring publishes it on the events service.
   */
  onClusterChanged?: (name: string, change: InfraredClusterChange) => void;
}

/**
 * Registration as one capability: the reconciler on a `scope: 'global'` scheduled task, and the
 * service the REST API delegates to, which triggers a pass after every write.
 *
 * One reconcile path: the scheduled task runs a pass over every Cluster; an API write triggers the
 * task and runs the same pass over the changed Cluster at once (the fast path: the scheduler looks
 * for triggered global tasks only every few seconds). That pass reads the Cluster with GETs instead
 * of LISTs and is serialized with the task's in this process; across replicas the writes are safe
 * by their preconditions.
 */
export async function createClusters(
  options: CreateClustersOptions,
): Promise<ClusterService> {
  const { config, logger, scheduler, api } = options;
  const settings = readClustersConfig(config);
  // the registrations of one pass reach the gitops repo as one change (issue 17)
  const batching = new BatchingPublisher(options.publisher, {
    maxFilesPerChange: settings.maxFilesPerChange,
  });
  // what is queued fails, the publish under way ends, then the repository is left alone
  options.lifecycle?.addShutdownHook(() => batching.close());
  const reconciler = new ClusterReconciler({
    api,
    prober: options.prober,
    publisher: batching,
    managementCluster: settings.managementCluster,
    logger,
    watches: options.passWatches,
  });
  // A burst of writes triggers a pass over every Cluster at most once per interval: the new
  // Clusters are their fast paths' (a pass over every Cluster leaves them alone, accepted.ts).
  const trigger = new ReconcileTrigger(
    scheduler,
    CLUSTERS_RECONCILE_TASK_ID,
    logger,
    { minGapMs: durationToMilliseconds(settings.reconcileInterval) },
  );
  const pass = async (scope: ReconcileScope) => {
    const summary = await reconciler.reconcile(scope);
    logger.debug?.(
      `infrared: reconciled ${summary.clusters} clusters in ${summary.durationMs} ms with ${summary.requests} requests`,
    );
  };
  await scheduler.scheduleTask({
    id: CLUSTERS_RECONCILE_TASK_ID,
    scope: 'global',
    frequency: settings.reconcileInterval,
    timeout: { minutes: 10 },
    fn: signal => pass({ signal }),
  });
  const discovered =
    options.discovered &&
    new DiscoveredList({
      secrets: api.secrets,
      options: options.discovered,
      watched: options.watchedDiscovered,
      passes: options.passes,
    });
  return new ClusterService({
    api,
    managementCluster: settings.managementCluster,
    logger,
    onChange: name => {
      options.onClusterChanged?.(name, 'registered');
      trigger.request();
      pass({ names: [name] })
        .then(() => options.onClusterChanged?.(name, 'reconciled'))
        .catch(e =>
          logger.warn(
            `infrared: reconciling cluster ${name} failed: ${e.message}`,
          ),
        );
    },
    onRemoved: name => options.onClusterChanged?.(name, 'removed'),
    listCache: options.watchedClusters
      ? new ClusterListCache(options.watchedClusters)
      : undefined,
    listDiscovered: discovered && (() => discovered.list()),
  });
}

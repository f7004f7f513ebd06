import type {
  LifecycleService,
  LoggerService,
} from '@backstage/backend-plugin-api';
import {
  type KubeClient,
  watchClusters,
} from '@infrared-clusters/infrared-kube';
import type { WatchedClusters } from './listCache';

/**
 * The management cluster's Clusters kept current by one watch for this backend's lifetime: started
 * now (the list is read live until its first LIST is in), stopped on shutdown.
 */
export function startWatchedClusters(options: {
  client: KubeClient;
  lifecycle: LifecycleService;
  logger: LoggerService;
}): WatchedClusters {
  const { client, lifecycle, logger } = options;
  const cache = watchClusters(client, {
    onError: e =>
      logger.warn(
        `infrared: the watch of Clusters failed, restarting it: ${
          (e as Error).message
        }`,
      ),
  });
  void cache.start();
  lifecycle.addShutdownHook(() => cache.stop());
  return cache;
}

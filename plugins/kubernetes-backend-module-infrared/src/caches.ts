import type { LoggerService } from '@backstage/backend-plugin-api';
import {
  INFRARED_NAMESPACE,
  type ClusterResource,
  type SecretObject,
} from '@infrared-clusters/plugin-infrared-common';
import {
  watchClusters,
  watchSecrets,
  type KubeClient,
  type WatchedCache,
} from '@infrared-clusters/infrared-kube';
import type { KubernetesObject, V1Secret } from '@kubernetes/client-node';

/** How long the first Kubernetes request may wait for the first LISTs (a dead server: never). */
const FIRST_SYNC_WAIT_MS = 10_000;

/**
 * The Clusters and the Secrets of namespace infrared, each kept current by a watch.
 *
 * @public
 */
export interface InfraredCaches {
  /** Every Cluster resource of the management cluster. */
  clusters: WatchedCache<KubernetesObject, ClusterResource>;
  /** The Secrets of namespace infrared (the clusters' kubeconfigs). */
  secrets: WatchedCache<V1Secret, SecretObject>;
  /** Resolves when both caches are filled, waiting at most 10 s in all. */
  ready(): Promise<void>;
  /** Stops both watches. */
  stop(): Promise<void>;
}

/**
 * Starts the two watched caches on the management cluster. `ready` resolves once both have their
 * first LIST, or after 10 s (what is cached then is served; a failing watch is logged and restarted).
 */
export function startInfraredCaches(
  client: KubeClient,
  logger: LoggerService,
): InfraredCaches {
  const onError = (what: string) => (error: unknown) =>
    logger.warn(
      `infrared: the watch of ${what} on the management cluster failed, restarting it: ${
        (error as Error)?.message ?? error
      }`,
    );
  const clusters = watchClusters(client, { onError: onError('Clusters') });
  const secrets = watchSecrets(client, INFRARED_NAMESPACE, {
    onError: onError(`Secrets in ${INFRARED_NAMESPACE}`),
  });
  void clusters.start();
  void secrets.start();
  const synced = Promise.all([clusters.synced, secrets.synced]);
  let firstWait: Promise<void> | undefined;
  return {
    clusters,
    secrets,
    ready(): Promise<void> {
      firstWait ??= new Promise<void>(resolve => {
        const timer = setTimeout(resolve, FIRST_SYNC_WAIT_MS);
        timer.unref?.();
        void synced.then(() => {
          clearTimeout(timer);
          resolve();
        });
      });
      return firstWait;
    },
    async stop(): Promise<void> {
      await Promise.all([clusters.stop(), secrets.stop()]);
    },
  };
}

import type {
  LifecycleService,
  LoggerService,
} from '@backstage/backend-plugin-api';
import {
  ARGOCD_NAMESPACE,
  INFRARED_NAMESPACE,
} from '@infrared-clusters/plugin-infrared-common';
import {
  type KubeClient,
  type WatchedCache,
  watchClusters,
  watchSecrets,
} from '@infrared-clusters/infrared-kube';
import {
  discoveredSecretsSelector,
  type DiscoveredClustersOptions,
} from '@infrared-clusters/infrared-registrar';
import { MANAGED_SELECTOR } from './observe';
import type { PassWatches } from './passWatches';

interface WatchesContext {
  client: KubeClient;
  lifecycle: LifecycleService;
  logger: LoggerService;
  /** Where the registrar's Secrets are, when it runs: the REST list shows its children from a watch too. */
  discovered?: DiscoveredClustersOptions;
}

/** Starts a watched cache now (it is read live, or LISTed, until it has synced); stops it on shutdown. */
function keepWatching<C extends WatchedCache<any, any>>(
  { lifecycle, logger }: WatchesContext,
  what: string,
  start: (onError: (e: unknown) => void) => C,
): C {
  const cache = start(e =>
    logger.warn(
      `infrared: the watch of ${what} failed, restarting it: ${
        (e as Error).message
      }`,
    ),
  );
  void cache.start();
  lifecycle.addShutdownHook(() => cache.stop());
  return cache;
}

/**
 * The three watches the scheduled pass reads instead of LISTs, for this backend's lifetime (the
 * Clusters one serves the REST list too): the Clusters, and the Secrets Infrared manages in
 * `infrared` (kubeconfigs) and `argocd` (Argo CD cluster Secrets), label-selected as the LISTs are.
 * With the registrar, a fourth: its Argo CD Secrets, which the REST list shows beside the Clusters.
 */
export function startClusterWatches(context: WatchesContext) {
  const secrets = (namespace: string, what: string, withoutData = false) =>
    keepWatching(context, what, onError =>
      watchSecrets(context.client, namespace, {
        onError,
        labelSelector: MANAGED_SELECTOR,
        withoutData,
      }),
    );
  const watches = {
    clusters: keepWatching(context, 'Clusters', onError =>
      watchClusters(context.client, { onError }),
    ),
    // their metadata only: a pass GETs a kubeconfig when its version is new (ConnectionMemo)
    kubeconfigs: secrets(INFRARED_NAMESPACE, 'kubeconfig Secrets', true),
    argos: secrets(ARGOCD_NAMESPACE, 'Argo CD cluster Secrets'),
  };
  return {
    ...(watches satisfies PassWatches),
    discovered: context.discovered && watchDiscovered(context),
  };
}

/** The registrar's Argo CD Secrets, selected as listDiscoveredClusters LISTs them. */
function watchDiscovered(context: WatchesContext) {
  const { namespace, labelSelector } = discoveredSecretsSelector(
    context.discovered,
  );
  return keepWatching(context, "the registrar's Argo CD Secrets", onError =>
    watchSecrets(context.client, namespace, { onError, labelSelector }),
  );
}

import type { LoggerService } from '@backstage/backend-plugin-api';
import {
  TOFU_JOB_SELECTOR,
  WatchedCache,
  type KubeClient,
} from '@infrared-clusters/infrared-kube';

export interface TofuJobWatch {
  /** Resolves once both watches have their first LIST in. */
  synced: Promise<void>;
  stop(): Promise<void>;
}

/**
 * The OpenTofu Jobs and their Pods in the Jobs' namespace, watched (one LIST and a watch each,
 * restarted after a failure), so that a Job's Pod starting, running and the Job ending reach
 * status.provision within a pass, not at the next scheduled one (issue 23.3, "The Build
 * section"). `onChange` is told of every change after the first LISTs; the caller coalesces.
 */
export function startTofuJobWatch(options: {
  client: KubeClient;
  namespace: string;
  logger: LoggerService;
  onChange: (what: string) => void;
}): TofuJobWatch {
  const { client, namespace, logger, onChange } = options;
  const ns = encodeURIComponent(namespace);
  const watched = [
    {
      what: 'jobs',
      path: `/apis/batch/v1/namespaces/${ns}/jobs`,
      list: () =>
        client.batch.listNamespacedJob({
          namespace,
          labelSelector: TOFU_JOB_SELECTOR,
        }),
    },
    {
      what: 'pods',
      path: `/api/v1/namespaces/${ns}/pods`,
      list: () =>
        client.core.listNamespacedPod({
          namespace,
          labelSelector: TOFU_JOB_SELECTOR,
        }),
    },
  ];
  const caches = watched.map(({ what, path, list }) => {
    let listed = false;
    const cache = new WatchedCache<any, unknown>(
      client,
      path,
      list as any,
      o => o,
      {
        onChange: () => listed && onChange(what),
        onError: e =>
          logger.warn(
            `infrared: the watch of the OpenTofu ${what} in ${namespace} failed, restarting it: ${
              (e as Error).message
            }`,
          ),
      },
    );
    void cache.start();
    void cache.synced.then(() => {
      listed = true;
    });
    return cache;
  });
  return {
    synced: Promise.all(caches.map(c => c.synced)).then(() => undefined),
    stop: async () => {
      await Promise.all(caches.map(c => c.stop()));
    },
  };
}

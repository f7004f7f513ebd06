import type { LoggerService } from '@backstage/backend-plugin-api';
import {
  INFRARED_GROUP,
  INFRARED_KINDS,
  INFRARED_VERSION,
} from '@infrared-clusters/plugin-infrared-common';
import {
  WatchedCache,
  type KubeClient,
} from '@infrared-clusters/infrared-kube';

/**
 * What the release gate decides from and a change of which must reach the Release column at once:
 * the allowlists (Organizations), the zones (Products), the clusters' Registered condition
 * (Clusters), and the Releases themselves. Argo CD's Applications and AppProjects change often
 * (sync, health) and are left to the schedule.
 */
const WATCHED = [
  INFRARED_KINDS.organization,
  INFRARED_KINDS.product,
  INFRARED_KINDS.cluster,
  INFRARED_KINDS.release,
] as const;

export interface GateWatch {
  /** Resolves once every watch has its first LIST in. */
  synced: Promise<void>;
  stop(): Promise<void>;
}

/**
 * Watches (one LIST and a watch each, restarted after a failure) of the gate's inputs on the
 * management cluster; `onChange` is told the kind of every change after the first LISTs.
 */
export function startGateWatch(options: {
  client: KubeClient;
  logger: LoggerService;
  onChange: (kind: string) => void;
}): GateWatch {
  const { client, logger, onChange } = options;
  const caches = WATCHED.map(({ kind, plural }) => {
    let listed = false;
    const cache = new WatchedCache(
      client,
      `/apis/${INFRARED_GROUP}/${INFRARED_VERSION}/${plural}`,
      () =>
        client.custom.listClusterCustomObject({
          group: INFRARED_GROUP,
          version: INFRARED_VERSION,
          plural,
        }) as any,
      o => o,
      {
        // the first LIST (its objects, then the LIST itself) is the state a pass starts from
        onChange: () => listed && onChange(kind),
        onError: e =>
          logger.warn(
            `infrared: the release gate's watch of ${plural} failed, restarting it: ${
              (e as Error).message
            }`,
          ),
      },
    );
    void cache.start();
    // after the first LIST's own notices: synced resolves as they are given
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

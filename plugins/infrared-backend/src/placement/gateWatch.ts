import type { LoggerService } from '@backstage/backend-plugin-api';
import {
  INFRARED_GROUP,
  INFRARED_KINDS,
  INFRARED_VERSION,
} from '@infrared-clusters/plugin-infrared-common';
import type { KubeClient } from '@infrared-clusters/infrared-kube';
import { startChangeWatches, type ChangeWatches } from '../kube/changeWatches';

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

/** Resolves `synced` once every watch has its first LIST in. */
export type GateWatch = ChangeWatches;

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
  return startChangeWatches(
    client,
    WATCHED.map(({ kind, plural }) => ({
      what: kind,
      path: `/apis/${INFRARED_GROUP}/${INFRARED_VERSION}/${plural}`,
      list: () =>
        client.custom.listClusterCustomObject({
          group: INFRARED_GROUP,
          version: INFRARED_VERSION,
          plural,
        }),
    })),
    onChange,
    (watch, e) =>
      logger.warn(
        `infrared: the release gate's watch of ${watch.path
          .split('/')
          .pop()} failed, restarting it: ${e.message}`,
      ),
  );
}

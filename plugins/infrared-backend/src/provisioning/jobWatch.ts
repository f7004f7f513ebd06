import type { LoggerService } from '@backstage/backend-plugin-api';
import {
  TOFU_JOB_SELECTOR,
  type KubeClient,
} from '@infrared-clusters/infrared-kube';
import { startChangeWatches, type ChangeWatches } from '../kube/changeWatches';

/** Resolves `synced` once both watches have their first LIST in. */
export type TofuJobWatch = ChangeWatches;

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
  return startChangeWatches(client, watched, onChange, (watch, e) =>
    logger.warn(
      `infrared: the watch of the OpenTofu ${watch.what} in ${namespace} failed, restarting it: ${e.message}`,
    ),
  );
}

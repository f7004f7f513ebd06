import { isBillableAction } from './billable';
import type { ProvisionStatus } from './types';

/**
 * An apply or destroy that is running or about to run: while there is one, the Cluster is not
 * removed (removal would leave cloud resources half built or half destroyed that nobody tracks).
 *
 * @public
 */
export interface BuildInProgress {
  /** The Job's name, `tofu-<cluster>-<generation>-<action>`. */
  job: string;
  action: 'apply' | 'destroy';
  /** Waiting (not started, or its Pod not yet running) or Running. */
  phase: 'Waiting' | 'Running';
}

/**
 * Why a Cluster cannot be removed now, in the words the API's 409 and the remove dialog both use.
 *
 * @public
 */
export function buildInProgressMessage(
  cluster: string,
  build: BuildInProgress,
): string {
  const half = build.action === 'apply' ? 'half built' : 'half destroyed';
  return `cluster ${cluster} cannot be removed while its OpenTofu ${build.action} runs: Job ${build.job} is ${build.phase}. Removing the cluster now would leave cloud resources ${half} that nobody tracks; wait until the Job has finished, then remove it.`;
}

/**
 * The apply or destroy a Cluster's recorded status says is waiting or running, if any. (The
 * backend also asks the Jobs themselves, which a status written every pass can lag behind.)
 *
 * @public
 */
export function buildInProgressFromStatus(
  status: Pick<ProvisionStatus, 'action' | 'job' | 'phase'> | undefined,
): BuildInProgress | undefined {
  if (!status || !isBillableAction(status.action)) return undefined;
  if (status.phase !== 'Waiting' && status.phase !== 'Running')
    return undefined;
  return { job: status.job, action: status.action, phase: status.phase };
}

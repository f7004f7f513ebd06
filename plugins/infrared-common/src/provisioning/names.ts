import type { ProvisionAction } from './types';

/**
 * The ServiceAccount OpenTofu Jobs run as, in namespace `infrared`.
 *
 * @public
 */
export const TOFU_SERVICE_ACCOUNT = 'infrared-tofu';

/**
 * The OpenTofu Job of one Cluster generation and action: `tofu-<cluster>-<generation>-<action>`.
 *
 * @public
 */
export function tofuJobName(
  cluster: string,
  generation: number,
  action: ProvisionAction | string,
): string {
  return `tofu-${cluster}-${generation}-${action}`;
}

/**
 * The kubernetes backend's `secret_suffix` for a Cluster: `cluster-<name>`.
 *
 * @public
 */
export function tofuStateSuffix(cluster: string): string {
  return `cluster-${cluster}`;
}

/**
 * The Secret OpenTofu keeps a Cluster's state in (workspace `default`).
 *
 * @public
 */
export function tofuStateSecretName(cluster: string): string {
  return `tfstate-default-${tofuStateSuffix(cluster)}`;
}

/**
 * The Lease OpenTofu's kubernetes backend locks the state with.
 *
 * @public
 */
export function tofuStateLeaseName(cluster: string): string {
  return `lock-${tofuStateSecretName(cluster)}`;
}

/**
 * How to read a Job's log, as status.provision.logs says.
 *
 * @public
 */
export function tofuLogsCommand(job: string, namespace = 'infrared'): string {
  return `kubectl -n ${namespace} logs job/${job}`;
}

import type { ProvisionAction } from './types';

/**
 * The ServiceAccount OpenTofu Jobs ran as before each Cluster got its own (namespace `infrared`):
 * kept for the upgrade's wording; no Job uses it now.
 *
 * @public
 */
export const TOFU_SERVICE_ACCOUNT = 'infrared-tofu';

/**
 * The namespace OpenTofu Jobs run in when `infrared.provisioning.namespace` names none: made by the
 * chart, Pod Security `restricted`. It holds only what Jobs need: their state Secrets, lock Leases,
 * the credentials Secrets Clusters name, and each Cluster's ServiceAccount and Role.
 *
 * @public
 */
export const DEFAULT_TOFU_NAMESPACE = 'infrared-tofu';

/**
 * The ServiceAccount, Role and RoleBinding of one Cluster's Jobs: `tofu-<cluster>-<uid prefix>`,
 * one per Cluster incarnation (a Cluster removed and made again gets new ones, while a Job of the
 * earlier one keeps its own until it ends).
 *
 * @public
 */
export function tofuAccessName(cluster: string, uid?: string): string {
  const suffix = (uid ?? '').replace(/[^a-z0-9]/g, '').slice(0, 8);
  return suffix ? `tofu-${cluster}-${suffix}` : `tofu-${cluster}`;
}

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
export function tofuLogsCommand(
  job: string,
  namespace = DEFAULT_TOFU_NAMESPACE,
): string {
  return `kubectl -n ${namespace} logs job/${job}`;
}

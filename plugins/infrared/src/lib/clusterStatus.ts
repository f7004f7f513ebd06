import {
  ClusterConditionTypes,
  ClusterView,
  conditionState,
  findCondition,
  type ConditionState,
} from '@infrared-clusters/plugin-infrared-common';

/** The two conditions registration goes through, in order. */
export const REGISTRATION_CONDITIONS = [
  ClusterConditionTypes.Connected,
  ClusterConditionTypes.Registered,
] as const;

export { conditionState, type ConditionState };

/**
 * Whether a cluster built with OpenTofu has a Job to come or running: no Job yet, one Waiting or
 * Running, or an action asked for that no Job has run yet.
 */
export function isProvisioning(
  cluster: Pick<ClusterView, 'provision'>,
): boolean {
  const provision = cluster.provision;
  if (!provision) return false;
  const status = provision.status;
  if (!status) return true;
  if (status.phase === 'Waiting' || status.phase === 'Running') return true;
  return status.action !== provision.action;
}

/**
 * Whether registration has not finished: Connected or Registered is not True. A discovered child
 * cluster counts only when it carries a condition that is not True (it may carry none). A cluster
 * built with OpenTofu is in progress too while a Job is to come or runs.
 */
export function isInProgress(cluster: ClusterView): boolean {
  if (isProvisioning(cluster)) return true;
  return REGISTRATION_CONDITIONS.some(type => {
    const condition = findCondition(cluster, type);
    if (cluster.discovered && !condition) return false;
    return condition?.status !== 'True';
  });
}

/** Both Connected and Registered are True. */
export function isRegistered(cluster: Pick<ClusterView, 'conditions'>) {
  return REGISTRATION_CONDITIONS.every(
    type => conditionState(cluster, type) === 'True',
  );
}

/** The first condition that is False: where registration is stuck, with its reason. */
export function stuckCondition(
  cluster: Pick<ClusterView, 'conditions'>,
): ClusterView['conditions'][number] | undefined {
  for (const type of REGISTRATION_CONDITIONS) {
    const condition = findCondition(cluster, type);
    if (condition?.status === 'False') return condition;
  }
  return undefined;
}

import {
  PROVISIONED_CONDITION,
  type ClusterCondition,
  type ClusterResource,
  type ProvisionStatus,
} from '@infrared-clusters/plugin-infrared-common';
import {
  setCondition,
  type ConditionInput,
} from '@infrared-clusters/infrared-kube';
import type { ProvisioningAction } from './planTypes';
import { canonicalJson } from '../canonicalJson';

/** Whether a Job phase is final. */
export const finished = (phase: string) =>
  phase === 'Succeeded' || phase === 'Failed';

/** The status write for a desired provision status and condition, if anything changes. */
export function statusAction(
  cluster: ClusterResource,
  desired: ProvisionStatus | undefined,
  condition: ConditionInput,
  now: string,
): ProvisioningAction | undefined {
  const conditions: ClusterCondition[] = setCondition(
    cluster.status?.conditions,
    condition,
    now,
  );
  const current = cluster.status ?? {};
  const same =
    canonicalJson(current.provision) === canonicalJson(desired) &&
    canonicalJson(
      current.conditions?.find(c => c.type === PROVISIONED_CONDITION),
    ) === canonicalJson(conditions.find(c => c.type === PROVISIONED_CONDITION));
  if (same) return undefined;
  return {
    type: 'writeStatus',
    cluster: {
      ...cluster,
      status: desired
        ? { ...current, provision: desired, conditions }
        : { ...current, conditions },
    },
  };
}

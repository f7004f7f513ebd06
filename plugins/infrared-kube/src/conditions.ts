import type {
  ClusterCondition,
  ConditionStatus,
} from '@infrared-clusters/plugin-infrared-common';

/**
 * A condition as a reconciler computes it; the transition time is decided by `setCondition`.
 *
 * @public
 */
export interface ConditionInput {
  type: string;
  status: ConditionStatus;
  reason: string;
  message: string;
  observedGeneration?: number;
}

/**
 * Sets one condition after the Kubernetes conventions: `lastTransitionTime` moves only when the
 * status changes; other conditions and their order are kept, a new type is appended.
 *
 * @public
 */
export function setCondition(
  conditions: readonly ClusterCondition[] | undefined,
  next: ConditionInput,
  now: string,
): ClusterCondition[] {
  const list = [...(conditions ?? [])];
  const index = list.findIndex(c => c.type === next.type);
  const previous = index >= 0 ? list[index] : undefined;
  const condition: ClusterCondition = {
    type: next.type,
    status: next.status,
    reason: next.reason,
    message: next.message,
    lastTransitionTime:
      previous && previous.status === next.status && previous.lastTransitionTime
        ? previous.lastTransitionTime
        : now,
  };
  if (next.observedGeneration !== undefined) {
    condition.observedGeneration = next.observedGeneration;
  }
  if (index >= 0) list[index] = condition;
  else list.push(condition);
  return list;
}

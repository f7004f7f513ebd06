import type { ClusterCondition } from '../types';
import { findCondition, type ClusterView } from '../../api/views';

/**
 * A condition's status, or `Pending` when the reconciler has not written it yet.
 *
 * @public
 */
export type ConditionState = ClusterCondition['status'] | 'Pending';

/**
 * The status of a cluster's condition `type`, `Pending` while it has none.
 *
 * @public
 */
export function conditionState(
  cluster: Pick<ClusterView, 'conditions'>,
  type: string,
): ConditionState {
  return findCondition(cluster, type)?.status ?? 'Pending';
}

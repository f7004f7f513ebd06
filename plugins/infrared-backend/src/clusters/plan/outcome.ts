import type { ClusterStatus } from '@infrared-clusters/plugin-infrared-common';
import { setCondition } from '@infrared-clusters/plugin-infrared-node';
import {
  completeRegistration,
  registeredCondition,
  REGISTERED_FILES_ANNOTATION,
} from './registration';
import type { ClusterOutcome, ClusterPlan, ObservedCluster } from './types';

/** What the executor writes to the Cluster last, once the plan's writes are done. */
export interface ClusterSettlement {
  /** The status to have (written only where it differs: `statusWrite`). */
  status: ClusterStatus;
  /** Annotations to merge into the Cluster's metadata first. */
  annotations?: Record<string, string>;
}

/**
 * The last step of a plan, from what its writes did: a refused write with `onRefused` puts its
 * reason in Registered; a publish completes Registered from the publisher's answer, and a merged
 * change records the hash of its files on the Cluster; otherwise the planned status.
 */
export function settleCluster(
  observed: ObservedCluster,
  plan: ClusterPlan,
  outcome: ClusterOutcome,
): ClusterSettlement {
  const { cluster, now } = observed;
  const { refused, published } = outcome;
  if (refused && 'onRefused' in refused.action) {
    const registered = refused.action.onRefused.registered;
    if (!registered) return { status: plan.status };
    const condition = registeredCondition(
      cluster,
      'False',
      registered.reason,
      `${registered.message}: ${refused.message}`,
    );
    return {
      status: {
        ...plan.status,
        conditions: setCondition(plan.status.conditions, condition, now),
      },
    };
  }
  if (!published || !plan.publish) return { status: plan.status };
  const { gitopsPath, defaultBranch, filesHash } = plan.publish;
  const merged = 'result' in published && published.result.merged;
  return {
    status: completeRegistration(
      plan.status,
      cluster,
      published,
      now,
      gitopsPath,
      defaultBranch,
    ),
    ...(merged
      ? { annotations: { [REGISTERED_FILES_ANNOTATION]: filesHash } }
      : {}),
  };
}

import {
  ARGOCD_NAMESPACE,
  ClusterConditionTypes,
  type ClusterResource,
  type ProvisionStatus,
} from '@infrared-clusters/plugin-infrared-common';
import type { ConditionInput } from '@infrared-clusters/plugin-infrared-node';
import { isOurArgoSecret } from './argoSecret';
import type { ObservedCluster, Refusal, SecretAction } from './types';

/**
 * The last OpenTofu Job of a built Cluster when it is a destroy that succeeded: the cluster is
 * gone, whatever Argo CD or the connection still say (issue 23.1). Undefined otherwise, and again
 * once a Job of a new generation (a plan or an apply) is the last one.
 */
export function destroyedBuild(
  cluster: ClusterResource,
): ProvisionStatus | undefined {
  const last = cluster.status?.provision;
  return cluster.spec.template &&
    last?.action === 'destroy' &&
    last.phase === 'Succeeded'
    ? last
    : undefined;
}

/** Registered False `Destroyed`: what happened and what the user can do next. */
export function destroyedCondition(
  cluster: ClusterResource,
  destroyed: ProvisionStatus,
): ConditionInput {
  return {
    type: ClusterConditionTypes.Registered,
    status: 'False',
    reason: 'Destroyed',
    message: `the OpenTofu destroy of generation ${destroyed.generation} (Job ${destroyed.job}) succeeded: the cluster is gone and Argo CD no longer has its cluster Secret. Remove the Cluster, or plan or apply it again`,
    observedGeneration: cluster.metadata.generation,
  };
}

/** A destroyed cluster's Argo CD Secret of ours is deleted (Argo CD would keep a dead server). */
export function planDestroyedArgoSecret(
  observed: ObservedCluster,
  onRefused: Refusal,
): SecretAction[] {
  const { argoSecret: current, cluster } = observed;
  if (!current || !isOurArgoSecret(current, cluster)) return [];
  return [
    {
      type: 'deleteArgoSecret',
      namespace: current.metadata.namespace ?? ARGOCD_NAMESPACE,
      name: current.metadata.name,
      uid: current.metadata.uid,
      onRefused,
    },
  ];
}

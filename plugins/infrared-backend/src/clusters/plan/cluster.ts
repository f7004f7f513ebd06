import {
  ClusterConditionTypes,
  type ClusterResource,
  type ClusterStatus,
  type ProvisionStatus,
} from '@infrared-clusters/plugin-infrared-common';
import {
  setCondition,
  type ConditionInput,
} from '@infrared-clusters/infrared-kube';
import { planArgoSecret } from './argoSecret';
import {
  dependentLabels,
  labelsInclude,
  ownerReferencesFor,
  sameOwners,
} from './ownership';
import { planRegistered } from './registered';
import type { ClusterPlan, ObservedCluster, SecretAction } from './types';

/**
 * Plans one Cluster, level-triggered: from what is (`observeCluster`: the Cluster, its Secrets,
 * the probe, the registration change) to the writes that make it what it should be. Pure; nothing
 * here reads or writes anything. Read straight down:
 *
 * 1. Connected, from the probe (or why the connection can't be tried), here.
 * 2. The kubeconfig Secret gets the Cluster as owner and our labels, here.
 * 3. The Argo CD Secret, all of it, in `planArgoSecret` (./argoSecret.ts): its writes, another's
 *    Secret of that name, and the status fields that name it.
 * 4. Registered, in `planRegistered` (./registered.ts): what to publish, or why not; the executor
 *    settles it from what the writes did with `settleRegistered`, in the same file.
 */
export function planCluster(observed: ObservedCluster): ClusterPlan {
  const { cluster, now } = observed;
  if (cluster.metadata.deletionTimestamp) {
    return {
      actions: [],
      status: cluster.status ?? {},
      skipped: 'being deleted',
    };
  }
  const connected = connectedCondition(observed);
  const destroyed = destroyedBuild(cluster);
  const argo = planArgoSecret(observed, {
    connected: connected.status === 'True',
    destroyed: !!destroyed,
  });
  const registered = planRegistered(observed, {
    connected,
    foreign: argo.foreign,
    destroyed,
  });

  let conditions = setCondition(cluster.status?.conditions, connected, now);
  if (registered.condition) {
    conditions = setCondition(conditions, registered.condition, now);
  }
  const status: ClusterStatus = { ...argo.status, conditions };
  if (observed.probe?.ok) {
    status.kubernetesVersion = observed.probe.kubernetesVersion;
    status.nodes = observed.probe.nodes;
  }
  if (cluster.spec.type === 'management') {
    // Registered by the gitops template's root Application, not by a file of ours.
    delete status.gitopsPath;
    delete status.pullRequest;
  }
  const generation = cluster.metadata.generation;
  if (generation !== undefined) status.observedGeneration = generation;
  return {
    actions: [...adoptKubeconfigSecret(observed), ...argo.actions],
    publish: registered.publish,
    status,
  };
}

/** Connected, from the probe's answer or from why the connection can't be tried. */
function connectedCondition(observed: ObservedCluster): ConditionInput {
  const { connection, probe, cluster } = observed;
  const base = {
    type: ClusterConditionTypes.Connected,
    observedGeneration: cluster.metadata.generation,
  };
  if (connection.kind === 'unusable') {
    return {
      ...base,
      status: 'False',
      reason: connection.reason,
      message: connection.message,
    };
  }
  if (!probe) {
    return {
      ...base,
      status: 'Unknown',
      reason: 'NotProbed',
      message: 'the API server has not been reached yet',
    };
  }
  if (!probe.ok) {
    return {
      ...base,
      status: 'False',
      reason: probe.reason,
      message: probe.message,
    };
  }
  const how =
    connection.kind === 'inCluster'
      ? "with the backend's own service account"
      : `at ${connection.argo.server} as Argo CD will connect`;
  return {
    ...base,
    status: 'True',
    reason: 'Connected',
    message: `reached Kubernetes ${probe.kubernetesVersion} ${how}: ${
      probe.nodes
    } node${probe.nodes === 1 ? '' : 's'}`,
  };
}

/**
 * The last OpenTofu Job of a built Cluster when it is a destroy that succeeded: the cluster is
 * gone, whatever Argo CD or the connection still say (issue 23.1). Undefined otherwise, and again
 * once a Job of a new generation (a plan or an apply) is the last one.
 */
function destroyedBuild(cluster: ClusterResource): ProvisionStatus | undefined {
  const last = cluster.status?.provision;
  return cluster.spec.template &&
    last?.action === 'destroy' &&
    last.phase === 'Succeeded'
    ? last
    : undefined;
}

/**
 * The kubeconfig Secret gets the Cluster as owner (so the garbage collector removes it with the
 * Cluster) and our labels (so the executor's LIST finds it). A refused write is only logged: it
 * blocks nothing, the next pass tries again.
 */
function adoptKubeconfigSecret(observed: ObservedCluster): SecretAction[] {
  const { cluster, kubeconfigSecret: secret } = observed;
  if (!secret) return [];
  const owners = ownerReferencesFor(secret.metadata.ownerReferences, cluster);
  const labels = dependentLabels(cluster.metadata.name);
  if (
    sameOwners(secret.metadata.ownerReferences, owners) &&
    labelsInclude(secret.metadata.labels, labels)
  ) {
    return [];
  }
  return [
    {
      type: 'adoptKubeconfigSecret',
      namespace: secret.metadata.namespace ?? '',
      name: secret.metadata.name,
      labels,
      ownerReferences: owners,
      resourceVersion: secret.metadata.resourceVersion,
    },
  ];
}

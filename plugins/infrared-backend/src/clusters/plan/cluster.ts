import type { ClusterStatus } from '@infrared-clusters/plugin-infrared-common';
import { setCondition } from '@infrared-clusters/plugin-infrared-node';
import {
  argoSecretRefusal,
  foreignArgoSecret,
  planArgoSecret,
  withArgoStatus,
} from './argoSecret';
import { connectedCondition } from './connected';
import {
  destroyedBuild,
  destroyedCondition,
  planDestroyedArgoSecret,
} from './destroyed';
import { planKubeconfigSecret } from './kubeconfigSecret';
import { planRegistration } from './registration';
import type { ClusterPlan, ObservedCluster } from './types';

/**
 * Plans one Cluster, level-triggered: from what is (the Cluster, its Secrets, the probe) to the
 * writes that make it what it should be, and what a refused write means. Pure; nothing here reads
 * or writes anything.
 *
 * 1. Connected from the probe (or why the connection can't be tried); the kubeconfig Secret gets
 *    the Cluster as owner.
 * 2. Registered: waits for Connected; publishes when not yet registered for this generation and
 *    files (`settleCluster` completes it from the publisher's answer).
 * 3. The Argo CD Secret `cluster-<name>` for a kubeconfig cluster that answered: created, restored,
 *    rewritten on rotation, left alone when right. None for inCluster (and a stale one removed).
 *    A refused write stops the registration (`argoSecretRefusal`).
 * 4. A built cluster whose last OpenTofu Job is a successful destroy: Registered False
 *    `Destroyed`, our Argo CD Secret deleted, nothing published, until a new plan or apply runs.
 */
export function planClusterReconcile(observed: ObservedCluster): ClusterPlan {
  const { cluster, now } = observed;
  const current = cluster.status ?? {};
  if (cluster.metadata.deletionTimestamp) {
    return { actions: [], status: current, skipped: 'being deleted' };
  }
  const generation = cluster.metadata.generation;

  const connected = connectedCondition(observed);
  let conditions = setCondition(current.conditions, connected, now);
  const destroyed = destroyedBuild(cluster);
  const registration = destroyed
    ? { condition: destroyedCondition(cluster, destroyed), publish: undefined }
    : planRegistration(observed, {
        connected,
        foreign: foreignArgoSecret(observed),
      });
  if (registration.condition)
    conditions = setCondition(conditions, registration.condition, now);

  const onRefused = argoSecretRefusal({ conditions });
  const actions = [
    ...planKubeconfigSecret(observed),
    ...(destroyed
      ? planDestroyedArgoSecret(observed, onRefused)
      : planArgoSecret(observed, connected.status === 'True', onRefused)),
  ];

  const status: ClusterStatus = withArgoStatus(current, observed, actions);
  if (destroyed) delete status.argoSecret;
  if (observed.probe?.ok) {
    status.kubernetesVersion = observed.probe.kubernetesVersion;
    status.nodes = observed.probe.nodes;
  }
  if (cluster.spec.type === 'management') {
    // Registered by the gitops template's root Application, not by a file of ours.
    delete status.gitopsPath;
    delete status.pullRequest;
  }
  status.conditions = conditions;
  if (generation !== undefined) status.observedGeneration = generation;
  return { actions, publish: registration.publish, status };
}

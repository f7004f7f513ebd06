import {
  argoClusterSecret,
  ARGOCD_NAMESPACE,
  argoSecretName,
  CLUSTER_NAME_LABEL,
  ClusterConditionTypes,
  IN_CLUSTER_SERVER,
  secretStrings,
  type ArgoConnection,
  type ClusterResource,
  type ClusterStatus,
  type SecretObject,
} from '@infrared-clusters/plugin-infrared-common';
import { controllerReferenceTo } from '@infrared-clusters/plugin-infrared-node';
import {
  dependentLabels,
  labelsInclude,
  ownerReferencesFor,
  sameOwners,
} from './ownership';
import { findCondition } from './status';
import type { ObservedCluster, Refusal, SecretAction } from './types';

/** Whether Infrared wrote this Argo CD Secret for this Cluster (owner or labels say so). */
export function isOurArgoSecret(
  secret: SecretObject,
  cluster: ClusterResource,
): boolean {
  return (
    (secret.metadata.ownerReferences ?? []).some(
      r => r.uid === cluster.metadata.uid,
    ) ||
    labelsInclude(
      secret.metadata.labels,
      dependentLabels(cluster.metadata.name),
    )
  );
}

/** The Argo CD Secret of that name when it is another's (by hand, the registrar, another tool). */
export function foreignArgoSecret(
  observed: ObservedCluster,
): SecretObject | undefined {
  const { connection, argoSecret, cluster } = observed;
  return connection.kind !== 'inCluster' &&
    argoSecret &&
    !isOurArgoSecret(argoSecret, cluster)
    ? argoSecret
    : undefined;
}

/**
 * What a refused Argo CD Secret write does: nothing is published after it, and Registered says
 * why, unless it already is True (a failed write keeps an earlier registration).
 */
export function argoSecretRefusal(status: ClusterStatus): Refusal {
  if (
    findCondition(status, ClusterConditionTypes.Registered)?.status === 'True'
  )
    return {};
  return {
    registered: {
      reason: 'ArgoSecretFailed',
      message: 'the Argo CD cluster Secret could not be written',
    },
  };
}

/**
 * The Argo CD Secret `cluster-<name>` for a kubeconfig cluster that answered: created, restored,
 * rewritten on rotation, left alone when right. None for inCluster (and a stale one of ours removed).
 */
export function planArgoSecret(
  observed: ObservedCluster,
  connected: boolean,
  onRefused: Refusal,
): SecretAction[] {
  const { cluster, connection, argoSecret: current } = observed;
  if (connection.kind === 'inCluster') {
    // Argo CD reaches its own cluster by its built-in destination: a Secret of ours is stale.
    if (current && isOurArgoSecret(current, cluster)) {
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
    return [];
  }
  // Written only for a cluster that answered with this credential; an unreachable or refused
  // one keeps what Argo CD has.
  if (connection.kind !== 'kubeconfig' || !connected) return [];
  // Another's Secret (by hand, the registrar, another tool) is never written: seed 003.
  if (current && !isOurArgoSecret(current, cluster)) return [];
  const desired = desiredArgoSecret(cluster, connection.argo);
  if (!current)
    return [{ type: 'createArgoSecret', secret: desired, onRefused }];
  const replacement = argoSecretReplacement(current, desired, cluster);
  return replacement
    ? [{ type: 'replaceArgoSecret', secret: replacement, onRefused }]
    : [];
}

/**
 * `status` with argoServer and argoSecret set: where Argo CD reaches the cluster, and the Secret of
 * ours it reads (none for inCluster, none when another's holds the name).
 */
export function withArgoStatus(
  status: ClusterStatus,
  observed: ObservedCluster,
  actions: SecretAction[],
): ClusterStatus {
  const { connection, cluster, argoSecret } = observed;
  const next: ClusterStatus = { ...status };
  if (connection.kind === 'inCluster') {
    next.argoServer = IN_CLUSTER_SERVER;
    delete next.argoSecret;
    return next;
  }
  if (connection.kind === 'kubeconfig') {
    next.argoServer = connection.argo.server;
  }
  const written = actions.some(
    a => a.type === 'createArgoSecret' || a.type === 'replaceArgoSecret',
  );
  const ours = argoSecret && !foreignArgoSecret(observed);
  if (written || (ours && connection.kind === 'kubeconfig'))
    next.argoSecret = argoSecretName(cluster.metadata.name);
  else if (!ours) delete next.argoSecret;
  return next;
}

/**
 * The Argo CD cluster Secret a kubeconfig Cluster should have: the very server and config the
 * probe connected with (`argoConnectionFor`: spec.server when set, else the kubeconfig's).
 */
export function desiredArgoSecret(
  cluster: ClusterResource,
  argo: ArgoConnection,
): SecretObject {
  const name = cluster.metadata.name;
  return argoClusterSecret({
    clusterName: name,
    server: argo.server,
    argoConfig: argo.config,
    labels: { [CLUSTER_NAME_LABEL]: name },
    ownerReferences: [controllerReferenceTo(cluster)],
  });
}

/**
 * The write that turns `current` into `desired`, or undefined when it already is right (same
 * name, server and config bytes, our labels, the Cluster as owner). What others added
 * (annotations, extra labels, extra keys such as `namespaces` or `project`) is kept.
 */
export function argoSecretReplacement(
  current: SecretObject,
  desired: SecretObject,
  cluster: ClusterResource,
): SecretObject | undefined {
  const have = secretStrings(current);
  const want = desired.stringData!;
  const owners = ownerReferencesFor(current.metadata.ownerReferences, cluster);
  const dataRight = Object.entries(want).every(([k, v]) => have[k] === v);
  const labelsRight = labelsInclude(
    current.metadata.labels,
    desired.metadata.labels!,
  );
  if (
    dataRight &&
    labelsRight &&
    sameOwners(current.metadata.ownerReferences, owners)
  ) {
    return undefined;
  }
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: {
      name: current.metadata.name,
      namespace: current.metadata.namespace ?? ARGOCD_NAMESPACE,
      resourceVersion: current.metadata.resourceVersion,
      labels: { ...current.metadata.labels, ...desired.metadata.labels },
      ...(current.metadata.annotations
        ? { annotations: current.metadata.annotations }
        : {}),
      ownerReferences: owners,
    },
    type: current.type || 'Opaque',
    data: { ...current.data },
    stringData: want,
  };
}

import {
  argoClusterSecret,
  ARGOCD_NAMESPACE,
  argoSecretName,
  CLUSTER_NAME_LABEL,
  IN_CLUSTER_SERVER,
  secretStrings,
  type ArgoConnection,
  type ClusterResource,
  type ClusterStatus,
  type SecretObject,
} from '@infrared-clusters/plugin-infrared-common';
import { controllerReferenceTo } from '../../kube/ownerReference';
import {
  dependentLabels,
  labelsInclude,
  ownerReferencesFor,
  sameOwners,
} from './ownership';
import type { ObservedCluster, SecretAction } from './types';

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

/** What the pass does about the Argo CD Secret `cluster-<name>`, and what the status says of it. */
export interface ArgoSecretPlan {
  /** The writes, each stopping the registration when refused. */
  actions: SecretAction[];
  /** The Secret of that name when it is another's (by hand, the registrar, another tool). */
  foreign?: SecretObject;
  /** The Cluster's status with `argoServer` and `argoSecret` as they should be. */
  status: ClusterStatus;
}

/**
 * The Argo CD Secret `cluster-<name>`, all of it, in one plan:
 * - another's Secret of that name is never written (seed 003): `foreign` names it, nothing else;
 * - a built cluster whose destroy succeeded: ours deleted (Argo CD would keep a dead server);
 * - inCluster: none (Argo CD's built-in destination), and a stale one of ours deleted;
 * - a kubeconfig cluster that answered with this credential: created, restored, rewritten on
 *   rotation, left alone when right; one that did not answer keeps what Argo CD has.
 * With it, where Argo CD reaches the cluster (`status.argoServer`) and the Secret of ours it
 * reads (`status.argoSecret`: none for inCluster, a destroyed cluster, or when another's holds
 * the name).
 */
export function planArgoSecret(
  observed: ObservedCluster,
  facts: { connected: boolean; destroyed: boolean },
): ArgoSecretPlan {
  const { cluster, connection, argoSecret: current } = observed;
  const ours = !!current && isOurArgoSecret(current, cluster);
  const foreign =
    current && !ours && connection.kind !== 'inCluster' ? current : undefined;
  const actions = secretActions(observed, ours, facts);
  const status: ClusterStatus = { ...cluster.status };
  if (connection.kind === 'inCluster') {
    status.argoServer = IN_CLUSTER_SERVER;
    delete status.argoSecret;
  } else {
    if (connection.kind === 'kubeconfig') {
      status.argoServer = connection.argo.server;
    }
    const written = actions.some(a => a.type !== 'deleteArgoSecret');
    if (written || (ours && connection.kind === 'kubeconfig'))
      status.argoSecret = argoSecretName(cluster.metadata.name);
    else if (!ours) delete status.argoSecret;
  }
  if (facts.destroyed) delete status.argoSecret;
  return { actions, ...(foreign ? { foreign } : {}), status };
}

function secretActions(
  observed: ObservedCluster,
  ours: boolean,
  facts: { connected: boolean; destroyed: boolean },
): SecretAction[] {
  const { cluster, connection, argoSecret: current } = observed;
  const deleteOurs = (): SecretAction[] =>
    current && ours
      ? [
          {
            type: 'deleteArgoSecret',
            namespace: current.metadata.namespace ?? ARGOCD_NAMESPACE,
            name: current.metadata.name,
            uid: current.metadata.uid,
            stopsRegistration: true,
          },
        ]
      : [];
  // The cluster is gone, or Argo CD reaches it by its built-in destination: ours is stale.
  if (facts.destroyed || connection.kind === 'inCluster') return deleteOurs();
  // Written only for a cluster that answered with this credential; an unreachable or refused
  // one keeps what Argo CD has. Another's Secret is never written.
  if (connection.kind !== 'kubeconfig' || !facts.connected) return [];
  if (current && !ours) return [];
  const desired = desiredArgoSecret(cluster, connection.argo);
  if (!current) {
    return [
      { type: 'createArgoSecret', secret: desired, stopsRegistration: true },
    ];
  }
  const replacement = argoSecretReplacement(current, desired, cluster);
  return replacement
    ? [
        {
          type: 'replaceArgoSecret',
          secret: replacement,
          stopsRegistration: true,
        },
      ]
    : [];
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

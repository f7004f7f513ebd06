import {
  ARGOCD_NAMESPACE,
  argoSecretName,
  INFRARED_NAMESPACE,
  type ClusterResource,
  type SecretObject,
} from '@infrared-clusters/plugin-infrared-common';
import { kubeconfigSecretRef, type ClusterConnection } from './connection';

/** The Secrets a pass LISTed by our labels (namespaces infrared and argocd), by name. */
export interface ListedSecrets {
  kubeconfigs: ReadonlyMap<string, SecretObject>;
  argos: ReadonlyMap<string, SecretObject>;
}

/** Where the executor takes a Secret from: the pass's LIST, a GET, or nowhere. */
export type SecretSource =
  | { listed: SecretObject }
  | { get: { namespace: string; name: string } }
  | { none: true };

const NONE: SecretSource = { none: true };

/**
 * Where each of a Cluster's Secrets is read from. From the LISTs when they have it; a GET for what
 * they miss and may still exist: a kubeconfig Secret made by hand (no label yet), an Argo CD Secret
 * that is not ours yet or is another's (by hand, the registrar). Without LISTs (a pass over named
 * Clusters, a requeue) every Secret that may exist is read with a GET. Nothing for a Cluster being
 * deleted.
 */
export function secretReads(
  cluster: ClusterResource,
  listed?: ListedSecrets,
): { kubeconfigSecret: SecretSource; argoSecret: SecretSource } {
  if (cluster.metadata.deletionTimestamp) {
    return { kubeconfigSecret: NONE, argoSecret: NONE };
  }
  const ref = kubeconfigSecretRef(cluster);
  const argoName = argoSecretName(cluster.metadata.name);
  const fromList = (found: SecretObject | undefined, get: SecretSource) =>
    found ? { listed: found } : get;
  const getKubeconfig: SecretSource = ref
    ? { get: { namespace: INFRARED_NAMESPACE, name: ref.name } }
    : NONE;
  const getArgo: SecretSource = {
    get: { namespace: ARGOCD_NAMESPACE, name: argoName },
  };
  if (!listed) return { kubeconfigSecret: getKubeconfig, argoSecret: getArgo };
  return {
    kubeconfigSecret: ref
      ? fromList(listed.kubeconfigs.get(ref.name), getKubeconfig)
      : NONE,
    // Not in the LIST and no kubeconfig: an inCluster Cluster, for which only ours matters.
    argoSecret: fromList(listed.argos.get(argoName), ref ? getArgo : NONE),
  };
}

/** The connection to probe, or none: a Cluster being deleted, or one that can't be reached. */
export function probeTarget(
  cluster: ClusterResource,
  connection: ClusterConnection,
): Exclude<ClusterConnection, { kind: 'unusable' }> | undefined {
  if (cluster.metadata.deletionTimestamp) return undefined;
  return connection.kind === 'unusable' ? undefined : connection;
}

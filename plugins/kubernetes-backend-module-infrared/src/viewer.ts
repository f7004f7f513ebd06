import {
  argoConnectionFor,
  inspectKubeconfig,
  INFRARED_NAMESPACE,
  KUBECONFIG_SECRET_KEY,
  secretStrings,
  viewerSecretRefProblem,
  type ArgoConnection,
  type ClusterResource,
  type SecretObject,
} from '@infrared-clusters/plugin-infrared-common';

const FIELD = 'spec.connection.viewerKubeconfigSecretRef';

/**
 * The read-only kubeconfig Secret (namespace infrared) a Cluster names for the Kubernetes plugin,
 * if any (`spec.connection.viewerKubeconfigSecretRef`, key default `kubeconfig`).
 */
export function viewerSecretRef(
  cluster: ClusterResource,
): { name: string; key: string } | undefined {
  const ref = cluster.spec.connection?.viewerKubeconfigSecretRef;
  if (!ref) return undefined;
  return { name: ref.name, key: ref.key || KUBECONFIG_SECRET_KEY };
}

/** How the Kubernetes plugin reaches a Cluster through its viewer kubeconfig. */
export type ViewerConnection =
  | { kind: 'none' }
  | { kind: 'viewer'; secretName: string; argo: ArgoConnection }
  | { kind: 'unusable'; message: string };

/**
 * Resolves a Cluster's viewer kubeconfig by the rules of the main one (`resolveConnection` of
 * -node): the same `inspectKubeconfig` (no exec plugins, no file paths, nothing Argo CD refuses)
 * and `spec.server` over the kubeconfig's server. One difference: for an inCluster Cluster (the
 * management cluster) the in-cluster address (`kubernetes.default.svc`) is allowed and spec.server
 * is not read, since the backend itself connects there, not Argo CD.
 */
export function resolveViewerConnection(
  cluster: ClusterResource,
  secretOf: (name: string) => SecretObject | undefined,
): ViewerConnection {
  const raw = cluster.spec.connection?.viewerKubeconfigSecretRef;
  if (raw === undefined) return { kind: 'none' };
  const problem = viewerSecretRefProblem(raw);
  if (problem) return { kind: 'unusable', message: problem };
  const ref = viewerSecretRef(cluster)!;
  const where = `Secret ${INFRARED_NAMESPACE}/${ref.name}`;
  const secret = secretOf(ref.name);
  if (!secret) {
    return {
      kind: 'unusable',
      message: `${where} (${FIELD}) does not exist: create it with a read-only kubeconfig under key ${ref.key}`,
    };
  }
  const text = secretStrings(secret)[ref.key];
  if (text === undefined || !text.trim()) {
    return {
      kind: 'unusable',
      message: `${where} (${FIELD}) has no key ${ref.key}: put the read-only kubeconfig under that key`,
    };
  }
  const inCluster = !!cluster.spec.connection?.inCluster;
  const inspection = inspectKubeconfig(text, {
    refuseInClusterServer: !inCluster,
  });
  if (!inspection.ok) {
    return {
      kind: 'unusable',
      message: `${where} (${FIELD}), key ${
        ref.key
      }, is refused: ${inspection.errors
        .map(e => `${e.field}: ${e.message}`)
        .join('; ')}`,
    };
  }
  const argo = argoConnectionFor(
    inspection,
    inCluster ? undefined : cluster.spec.server,
  );
  if (!argo.ok) {
    return {
      kind: 'unusable',
      message: `spec.server is refused: ${argo.errors
        .map(e => e.message)
        .join('; ')}`,
    };
  }
  return {
    kind: 'viewer',
    secretName: ref.name,
    argo: { server: argo.server, config: argo.config },
  };
}

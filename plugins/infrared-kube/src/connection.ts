import {
  argoConnectionFor,
  inspectKubeconfig,
  INFRARED_NAMESPACE,
  KUBECONFIG_SECRET_KEY,
  secretStrings,
  type ArgoConnection,
  type ClusterResource,
  type KubeconfigAccepted,
  type SecretObject,
} from '@infrared-clusters/plugin-infrared-common';

/**
 * Why a Cluster can't be reached before anything is tried.
 *
 * @public
 */
export type ConnectionProblemReason =
  | 'NoConnection'
  | 'KubeconfigSecretMissing'
  | 'KubeconfigKeyMissing'
  | 'KubeconfigInvalid'
  | 'ServerInvalid';

/**
 * How the backend reaches a Cluster, decided from its spec and its kubeconfig Secret alone: what the
 * clusters reconciler's probe connects with, and the Kubernetes plugin's module too.
 *
 * @public
 */
export type ResolvedConnection =
  | { kind: 'inCluster' }
  | {
      kind: 'kubeconfig';
      secretName: string;
      /** The inspected kubeconfig: server, Argo CD config, inline credential. */
      kubeconfig: KubeconfigAccepted;
      /**
       * What the Argo CD cluster Secret holds and Argo CD connects with: `server` is spec.server
       * when set, else the kubeconfig's (`argoConnectionFor`). The probe connects with this.
       */
      argo: ArgoConnection;
    }
  | {
      kind: 'unusable';
      reason: ConnectionProblemReason;
      message: string;
    };

/**
 * The name of the kubeconfig Secret (namespace infrared) a Cluster refers to, if any.
 *
 * @public
 */
export function kubeconfigSecretRef(
  cluster: ClusterResource,
): { name: string; key: string } | undefined {
  const ref = cluster.spec.connection?.kubeconfigSecretRef;
  if (!ref?.name) return undefined;
  return { name: ref.name, key: ref.key || KUBECONFIG_SECRET_KEY };
}

/**
 * Resolves a Cluster's connection. The kubeconfig goes through the same `inspectKubeconfig` as the
 * API's validation, so a kubeconfig Secret made by hand is held to the same rules (no exec plugins,
 * no file paths, nothing Argo CD refuses) before the backend uses it; spec.server, which overrides
 * the kubeconfig's server in the Argo CD Secret, is held to the kubeconfig's server rules.
 *
 * @public
 */
export function resolveConnection(
  cluster: ClusterResource,
  kubeconfigSecret: SecretObject | undefined,
): ResolvedConnection {
  if (cluster.spec.connection?.inCluster) return { kind: 'inCluster' };
  const ref = kubeconfigSecretRef(cluster);
  if (!ref) {
    return {
      kind: 'unusable',
      reason: 'NoConnection',
      message:
        'spec.connection names neither inCluster nor kubeconfigSecretRef: set one so Infrared can reach the cluster',
    };
  }
  const where = `Secret ${INFRARED_NAMESPACE}/${ref.name}`;
  if (!kubeconfigSecret) {
    return {
      kind: 'unusable',
      reason: 'KubeconfigSecretMissing',
      message: `${where} (spec.connection.kubeconfigSecretRef) does not exist: create it with the cluster's kubeconfig under key ${ref.key}`,
    };
  }
  const text = secretStrings(kubeconfigSecret)[ref.key];
  if (text === undefined || !text.trim()) {
    return {
      kind: 'unusable',
      reason: 'KubeconfigKeyMissing',
      message: `${where} has no key ${ref.key}: put the cluster's kubeconfig under that key`,
    };
  }
  const inspection = inspectKubeconfig(text, { refuseInClusterServer: true });
  if (!inspection.ok) {
    return {
      kind: 'unusable',
      reason: 'KubeconfigInvalid',
      message: `${where}, key ${ref.key}, is refused: ${inspection.errors
        .map(e => `${e.field}: ${e.message}`)
        .join('; ')}`,
    };
  }
  const argo = argoConnectionFor(inspection, cluster.spec.server);
  if (!argo.ok) {
    return {
      kind: 'unusable',
      reason: 'ServerInvalid',
      message: `spec.server is refused: ${argo.errors
        .map(e => e.message)
        .join('; ')}`,
    };
  }
  // a copy: the parsed values (CA, certificate, key) are slices of the kubeconfig's text, and a
  // connection kept per cluster kept each whole text alive with them (issue 25: four texts a cluster)
  return structuredClone({
    kind: 'kubeconfig',
    secretName: ref.name,
    kubeconfig: inspection,
    argo: { server: argo.server, config: argo.config },
  });
}

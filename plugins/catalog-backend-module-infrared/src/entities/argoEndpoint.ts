import {
  argoSecretManager,
  argoSecretName,
  CLUSTER_NAME_LABEL,
  secretStrings,
  trimServer,
  type ClusterResource,
  type SecretObject,
} from '@infrared-clusters/plugin-infrared-common';
import type { ClusterEndpoint } from './endpoint';

/** What the endpoint needs of an Argo CD cluster Secret's `config` (JSON, as Infrared writes it). */
interface ArgoTls {
  tlsClientConfig?: { caData?: unknown; insecure?: unknown };
}

/**
 * The Secret is Infrared's and written for this Cluster, as the backend's reconciler decides
 * (`isOurArgoSecret`: the Cluster owns it, or it carries the Cluster's name label), and the
 * Cluster's status says its registration wrote it (`status.argoSecret`).
 */
function isRegisteredBy(cluster: ClusterResource, secret: SecretObject) {
  const { metadata } = secret;
  const name = cluster.metadata.name;
  return (
    metadata.name === argoSecretName(name) &&
    cluster.status?.argoSecret === metadata.name &&
    argoSecretManager(metadata).kind === 'infrared' &&
    ((metadata.ownerReferences ?? []).some(
      r => !!r.uid && r.uid === cluster.metadata.uid,
    ) ||
      metadata.labels?.[CLUSTER_NAME_LABEL] === name)
  );
}

function parseTls(config: string): ArgoTls['tlsClientConfig'] | undefined {
  try {
    const parsed = JSON.parse(config) as ArgoTls | null;
    const tls = parsed?.tlsClientConfig;
    return tls && typeof tls === 'object' ? tls : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A registered Cluster's endpoint from the Argo CD cluster Secret Infrared wrote for it: its
 * `server` and `config` are the server and TLS settings the backend's probe connected with
 * (spec.server over the kubeconfig's server, the kubeconfig's CA), in JSON, so no kubeconfig is
 * parsed (issue 25: `yaml`'s parse of 10,000 kubeconfigs was most of a first full mutation).
 * Undefined, so the kubeconfig is read as before, when the Secret is not Infrared's for this
 * Cluster, or disagrees with its status (`argoServer`) or its spec.server (changed since).
 */
export function argoSecretEndpoint(
  cluster: ClusterResource,
  argoSecret: SecretObject | undefined,
): ClusterEndpoint | undefined {
  const { connection, server: specServer } = cluster.spec;
  if (!argoSecret || connection?.inCluster || !connection?.kubeconfigSecretRef)
    return undefined;
  if (!isRegisteredBy(cluster, argoSecret)) return undefined;
  const { server, config } = secretStrings(argoSecret);
  const argoServer = cluster.status?.argoServer;
  if (!server || !config || !argoServer) return undefined;
  if (trimServer(argoServer) !== server) return undefined;
  if (specServer?.trim() && trimServer(specServer) !== server) return undefined;
  const tls = parseTls(config);
  if (!tls) return undefined;
  const { caData, insecure } = tls;
  if (caData !== undefined && typeof caData !== 'string') return undefined;
  return {
    server,
    ...(caData ? { caData } : {}),
    ...(insecure === true ? { skipTlsVerify: true } : {}),
  };
}

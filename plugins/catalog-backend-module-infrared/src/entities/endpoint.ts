import type {
  ClusterResource,
  SecretObject,
} from '@infrared-clusters/plugin-infrared-common';
import {
  resolveConnection,
  type KubeClient,
} from '@infrared-clusters/infrared-kube';
import { argoSecretEndpoint } from './argoEndpoint';

/**
 * Where the Kubernetes plugin reaches a Cluster: its API server, the CA that signs it, and whether
 * TLS is unverified. Public facts only: the credential never leaves the Secret it is in.
 *
 * @public
 */
export interface ClusterEndpoint {
  server: string;
  /** Base64 PEM, as in a kubeconfig's `certificate-authority-data`. */
  caData?: string;
  skipTlsVerify?: boolean;
}

/**
 * A Cluster's endpoint, resolved the way the backend connects to it (`resolveConnection` of
 * -node: spec.server over the kubeconfig's server, the kubeconfig's CA). A registered Cluster's
 * comes from the Argo CD Secret Infrared wrote with that very server and CA (JSON, no kubeconfig
 * parsed); any other's from its kubeconfig. An inCluster Cluster is the management cluster's
 * endpoint; a Cluster that cannot be reached has none.
 */
export function clusterEndpoint(
  cluster: ClusterResource,
  kubeconfigSecret: SecretObject | undefined,
  management: ClusterEndpoint | undefined,
  argoSecret?: SecretObject,
): ClusterEndpoint | undefined {
  const registered = argoSecretEndpoint(cluster, argoSecret);
  if (registered) return registered;
  const connection = resolveConnection(cluster, kubeconfigSecret);
  if (connection.kind === 'inCluster') return management;
  if (connection.kind !== 'kubeconfig') return undefined;
  const { server, config } = connection.argo;
  const { caData, insecure } = config.tlsClientConfig;
  return {
    server,
    ...(caData ? { caData } : {}),
    ...(insecure ? { skipTlsVerify: true } : {}),
  };
}

/** The management cluster's endpoint, from the client that reaches it. */
export function managementEndpoint(client: KubeClient): ClusterEndpoint {
  const current = client.kubeConfig.getCurrentCluster();
  return {
    server: client.server,
    ...(current?.caData ? { caData: current.caData } : {}),
    ...(current?.skipTLSVerify ? { skipTlsVerify: true } : {}),
  };
}

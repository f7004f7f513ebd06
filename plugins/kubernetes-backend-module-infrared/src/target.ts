import type { KubernetesCredential } from '@backstage/plugin-kubernetes-node';
import type { ArgoConnection } from '@infrared-clusters/plugin-infrared-common';
import { argoConnectionProblems } from '@infrared-clusters/plugin-infrared-common';

/**
 * How the Kubernetes plugin's fetcher reaches one cluster: what goes into its ClusterDetails (url,
 * caData, skipTLSVerify) and the credential the auth strategy hands it at request time.
 */
export interface KubeTarget {
  url: string;
  /** Base64 PEM, as ClusterDetails.caData takes it. */
  caData?: string;
  skipTLSVerify: boolean;
  credential: KubernetesCredential;
}

/** A cluster the fetcher cannot reach as Argo CD does, and why. */
export interface UnusableTarget {
  unusable: string;
}

const pem = (base64: string) => Buffer.from(base64, 'base64').toString('utf8');

/**
 * The target for a Cluster reached through its kubeconfig Secret: exactly the server, CA and
 * credential Argo CD and the clusters reconciler's probe use (`resolveConnection`). What the
 * Kubernetes plugin's fetcher cannot express is refused with the reason, never tried another way:
 * a proxy and a TLS server name (ClusterDetails has neither, and its agent takes only ca, cert, key
 * and rejectUnauthorized), and exec credentials (which the backend never runs).
 */
export function targetForArgo(
  connection: ArgoConnection,
): KubeTarget | UnusableTarget {
  const problems = argoConnectionProblems(connection);
  if (problems.length) {
    return {
      unusable: `Argo CD would refuse this connection: ${problems
        .map(p => `${p.field}: ${p.message}`)
        .join('; ')}`,
    };
  }
  const { server, config } = connection;
  const tls = config.tlsClientConfig;
  if (config.proxyUrl) {
    return {
      unusable:
        "it is reached through a proxy (proxy-url), which the Kubernetes plugin's fetcher cannot use: ClusterDetails has no proxy setting",
    };
  }
  if (tls.serverName) {
    return {
      unusable:
        "its kubeconfig sets tls-server-name, which the Kubernetes plugin's fetcher cannot use: ClusterDetails has no TLS server name",
    };
  }
  if (config.execProviderConfig || config.awsAuthConfig) {
    return {
      unusable:
        'its credential is an exec plugin, which the backend never runs',
    };
  }
  let credential: KubernetesCredential;
  if (config.bearerToken) {
    credential = { type: 'bearer token', token: config.bearerToken };
  } else if (tls.certData && tls.keyData) {
    credential = {
      type: 'x509 client certificate',
      cert: pem(tls.certData),
      key: pem(tls.keyData),
    };
  } else {
    return {
      unusable:
        'its kubeconfig has neither a bearer token nor a client certificate',
    };
  }
  return {
    url: server,
    caData: tls.caData,
    // Plain http has no TLS to verify (client-node's rule too).
    skipTLSVerify: tls.insecure || new URL(server).protocol === 'http:',
    credential,
  };
}

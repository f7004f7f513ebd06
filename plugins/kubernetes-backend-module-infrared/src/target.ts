import type { KubeConfig } from '@kubernetes/client-node';
import type { KubernetesCredential } from '@backstage/plugin-kubernetes-node';
import type { ArgoConnection } from '@infrared-clusters/plugin-infrared-common';
import { argoConnectionProblems } from '@infrared-clusters/plugin-infrared-common';
import type { RequestOptions } from 'node:https';

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

const text = (value: unknown) =>
  Buffer.isBuffer(value) ? value.toString('utf8') : String(value);

/**
 * The target for an inCluster Cluster (the management cluster): the backend's own identity there,
 * as the probe uses it, read from the management client's KubeConfig at each call (an in-cluster
 * service account's token file is read again, so a rotated token is picked up).
 */
export async function targetForKubeConfig(
  kubeConfig: KubeConfig,
): Promise<KubeTarget | UnusableTarget> {
  const cluster = kubeConfig.getCurrentCluster();
  if (!cluster) return { unusable: 'the management kubeconfig has no cluster' };
  if (cluster.tlsServerName || cluster.proxyUrl) {
    return {
      unusable:
        "the management kubeconfig sets tls-server-name or proxy-url, which the Kubernetes plugin's fetcher cannot use",
    };
  }
  const options: RequestOptions = {};
  await kubeConfig.applyToHTTPSOptions(options);
  const authorization = (options.headers as Record<string, unknown> | undefined)
    ?.Authorization;
  let credential: KubernetesCredential;
  if (
    typeof authorization === 'string' &&
    authorization.startsWith('Bearer ')
  ) {
    credential = { type: 'bearer token', token: authorization.slice(7) };
  } else if (options.cert && options.key) {
    credential = {
      type: 'x509 client certificate',
      cert: text(options.cert),
      key: text(options.key),
    };
  } else {
    return {
      unusable:
        "the backend's management cluster identity has neither a bearer token nor a client certificate",
    };
  }
  return {
    url: cluster.server,
    caData: options.ca
      ? Buffer.from(text(options.ca)).toString('base64')
      : undefined,
    skipTLSVerify:
      !!cluster.skipTLSVerify || new URL(cluster.server).protocol === 'http:',
    credential,
  };
}

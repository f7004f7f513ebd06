import type {
  RequestContext,
  SecurityAuthentication,
} from '@kubernetes/client-node';
import { KubeConfig } from '@kubernetes/client-node';
import type { RequestOptions } from 'node:https';
import {
  argoConnectionProblems,
  type ArgoConnection,
  type FieldError,
} from '@infrared-clusters/plugin-infrared-common';
import { KubeClient, type KubeClientOptions } from './client';

/**
 * Argo CD (client-go) would refuse the connection: the probe must not try a looser one.
 *
 * @public
 */
export class ArgoConnectionRefusedError extends Error {
  constructor(readonly problems: FieldError[]) {
    super(
      `Argo CD would refuse this connection: ${problems
        .map(p => `${p.field}: ${p.message}`)
        .join('; ')}`,
    );
    this.name = 'ArgoConnectionRefusedError';
  }
}

/**
 * The proxy URL as `@kubernetes/client-node` must be given it to connect the way Go does: the scheme
 * lowercased (Go's url.Parse does; client-node picks its agent by prefix), and socks5 as socks5h,
 * because Go's SOCKS5 dialer sends the server's host name to the proxy to resolve, where
 * socks-proxy-agent's socks5 resolves it locally.
 *
 * @public
 */
export function nodeProxyUrl(proxyUrl: string | undefined): string | undefined {
  if (!proxyUrl) return undefined;
  const url = new URL(proxyUrl);
  if (url.protocol === 'socks5:') return `socks5h:${url.href.slice(7)}`;
  return url.href;
}

/**
 * How to connect exactly as Argo CD will with a cluster Secret's `server` and `config`: the same
 * server, TLS settings (insecure, caData, serverName; certificate verification on unless
 * `insecure`, whatever NODE_TLS_REJECT_UNAUTHORIZED says), proxy and credential. `kubeConfig`
 * names the server; `authentication` sets each request's headers and agent. Throws
 * ArgoConnectionRefusedError for what client-go refuses (`argoConnectionProblems`), and an Error
 * for exec credentials, which the backend never runs.
 *
 * @public
 */
export function argoKubeConfig(connection: ArgoConnection): {
  kubeConfig: KubeConfig;
  authentication: SecurityAuthentication;
} {
  const problems = argoConnectionProblems(connection);
  if (problems.length) throw new ArgoConnectionRefusedError(problems);
  const { config, server } = connection;
  if (config.execProviderConfig || config.awsAuthConfig) {
    throw new Error(
      'an exec credential cannot be used to reach the cluster from the backend',
    );
  }
  const tls = config.tlsClientConfig;
  const kc = new KubeConfig();
  kc.loadFromClusterAndUser(
    {
      name: 'argo',
      server,
      caData: tls.caData,
      // Plain http has no TLS to verify; client-node wants the flag to allow it, as Go does not.
      skipTLSVerify: tls.insecure || new URL(server).protocol === 'http:',
      tlsServerName: tls.serverName,
      proxyUrl: nodeProxyUrl(config.proxyUrl),
    },
    {
      name: 'argo',
      token: config.bearerToken,
      certData: tls.certData,
      keyData: tls.keyData,
    },
  );
  // The Secret's credential is static (no exec, no token file): its headers and agent are made once.
  let prepared: Promise<RequestOptions> | undefined;
  const authentication: SecurityAuthentication = {
    getName: () => 'argo-cd-cluster-secret',
    async applySecurityAuthentication(context: RequestContext) {
      prepared ??= (async () => {
        // Explicit, so the agent never falls back to NODE_TLS_REJECT_UNAUTHORIZED.
        const options: RequestOptions = { rejectUnauthorized: !tls.insecure };
        await kc.applyToHTTPSOptions(options);
        return options;
      })();
      const request = await prepared;
      for (const [key, value] of Object.entries(request.headers ?? {})) {
        if (value !== undefined) context.setHeaderParam(key, String(value));
      }
      context.setAgent(request.agent as any);
    },
  };
  return { kubeConfig: kc, authentication };
}

/**
 * A client that connects exactly as Argo CD will (see `argoKubeConfig`).
 *
 * @public
 */
export function kubeClientForArgo(
  connection: ArgoConnection,
  options: Omit<KubeClientOptions, 'authentication'> = {},
): KubeClient {
  const { kubeConfig, authentication } = argoKubeConfig(connection);
  return new KubeClient(kubeConfig, { ...options, authentication });
}

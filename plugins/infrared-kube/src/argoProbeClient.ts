import http from 'node:http';
import https from 'node:https';
import {
  HttpMethod,
  RequestContext,
  type KubeConfig,
  type SecurityAuthentication,
} from '@kubernetes/client-node';
import type { ArgoConnection } from '@infrared-clusters/plugin-infrared-common';
import { argoKubeConfig } from './argoClient';
import { DEFAULT_KUBE_TIMEOUT_MS, KubeClient } from './client';
import { RequestCounter } from './counter';
import { KeptConnection } from './keptGet';

/** How a prepared client sends: over its own kept connection, or (through a proxy) a whole KubeClient. */
type Route =
  | {
      connection: KeptConnection;
      headers: Record<string, string>;
      prefix: string;
    }
  | { client: KubeClient };

/**
 * The probe's client of one Argo CD connection: its server and getKept, and nothing else kept per
 * cluster but one KeptConnection (whose TLS context is shared) and the request headers. A
 * KubeClient per cluster held a client-node KubeConfig, configuration, four generated APIs and two
 * https.Agents with their own copies of the CA and credential, for the probe's two GETs (issue 25:
 * RSS at 1,000 clusters). The connection is what `argoKubeConfig` gives a request (the same TLS
 * options, headers and checks), asked once: an Argo CD Secret's credential is static. Through a
 * proxy it is a KubeClient, whose getKept falls back to the proxy agent.
 */
export class ArgoProbeClient {
  readonly server: string;
  private route?: Promise<Route>;
  /** The direct route's connection, once prepared. */
  private kept?: KeptConnection;
  private pending?: {
    kubeConfig: KubeConfig;
    authentication: SecurityAuthentication;
  };

  /** Throws ArgoConnectionRefusedError (or an Error for exec credentials) as kubeClientForArgo does. */
  constructor(
    connection: ArgoConnection,
    private readonly counter: RequestCounter = new RequestCounter(),
    private readonly timeoutMs = DEFAULT_KUBE_TIMEOUT_MS,
  ) {
    this.pending = argoKubeConfig(connection);
    this.server = connection.server;
  }

  async getKept<T = any>(
    path: string,
    signal: AbortSignal = AbortSignal.timeout(this.timeoutMs),
    options: { maxBytes?: number } = {},
  ): Promise<T> {
    this.route ??= this.prepare();
    const route = await this.route.catch(error => {
      this.route = undefined;
      throw error;
    });
    if ('client' in route) return route.client.getKept(path, signal, options);
    this.counter.count('GET');
    return route.connection.get<T>(
      route.prefix + path,
      route.headers,
      signal,
      options.maxBytes,
    );
  }

  /**
   * Closes the direct route's connection: the prober holds none open between full probes. A later
   * GET opens another. A proxied route keeps its KubeClient's.
   */
  closeConnection(): void {
    this.kept?.close();
  }

  private async prepare(): Promise<Route> {
    const { kubeConfig, authentication } = this.pending!;
    const context = new RequestContext(this.server, HttpMethod.GET);
    context.setHeaderParam('Accept', 'application/json');
    await authentication.applySecurityAuthentication(context);
    const agent = context.getAgent();
    const origin = new URL(this.server);
    let connection: KeptConnection | undefined;
    if (origin.protocol === 'https:' && agent?.constructor === https.Agent) {
      const tls = (agent as https.Agent & { options: Record<string, unknown> })
        .options;
      connection = new KeptConnection({ origin, tls });
    } else if (
      origin.protocol === 'http:' &&
      (!agent || agent.constructor === http.Agent)
    ) {
      connection = new KeptConnection({ origin });
    }
    this.pending = undefined;
    this.kept = connection;
    if (!connection) {
      return {
        client: new KubeClient(kubeConfig, {
          authentication,
          counter: this.counter,
          timeoutMs: this.timeoutMs,
        }),
      };
    }
    return {
      connection,
      headers: context.getHeaders(),
      prefix: origin.pathname.replace(/\/+$/, ''),
    };
  }
}

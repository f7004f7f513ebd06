import type {
  ConfigApi,
  DiscoveryApi,
  FetchApi,
} from '@backstage/frontend-plugin-api';
import { redactCredentials } from './redactCredentials';
import type { ArgoCdApi, ArgoCdCluster } from './types';

/** The config key naming the proxy endpoint in front of Argo CD's API. */
export const ARGOCD_PROXY_PATH_KEY = 'infrared.argocd.proxyPath';

/** A failed request to Argo CD through the proxy; the message carries no credential. */
export class ArgoCdApiError extends Error {
  readonly name = 'ArgoCdApiError';
  constructor(message: string, readonly status: number) {
    super(redactCredentials(message));
  }
}

/**
 * Reads Argo CD's API through Backstage's proxy (`@backstage/plugin-proxy-backend`): the proxy
 * adds Argo CD's token from the backend's config, so the browser only ever sends the user's
 * Backstage token (through `fetchApi`).
 */
export class ArgoCdClient implements ArgoCdApi {
  readonly proxyPath?: string;
  private readonly discoveryApi: DiscoveryApi;
  private readonly fetchApi: FetchApi;

  constructor(options: {
    discoveryApi: DiscoveryApi;
    fetchApi: FetchApi;
    configApi: ConfigApi;
  }) {
    this.discoveryApi = options.discoveryApi;
    this.fetchApi = options.fetchApi;
    const path = options.configApi
      .getOptionalString(ARGOCD_PROXY_PATH_KEY)
      ?.trim()
      .replace(/\/+$/, '');
    if (path) this.proxyPath = path.startsWith('/') ? path : `/${path}`;
  }

  async listClusters(signal?: AbortSignal): Promise<ArgoCdCluster[]> {
    const body = await this.get('/v1/clusters', signal);
    return Array.isArray(body?.items) ? body.items : [];
  }

  private async get(path: string, signal?: AbortSignal): Promise<any> {
    if (!this.proxyPath) {
      throw new Error(
        `No proxy endpoint for Argo CD (${ARGOCD_PROXY_PATH_KEY})`,
      );
    }
    const base = await this.discoveryApi.getBaseUrl('proxy');
    const response = await this.fetchApi.fetch(
      `${base}${this.proxyPath}${path}`,
      { headers: { accept: 'application/json' }, signal },
    );
    const text = await response.text();
    let body: any;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = undefined;
    }
    if (!response.ok) throw failure(response, body, this.proxyPath, text);
    if (body === undefined) {
      throw new ArgoCdApiError(
        'Argo CD answered with no JSON',
        response.status,
      );
    }
    return body;
  }
}

/**
 * What Backstage's proxy (http-proxy-middleware) answers when it cannot reach its target: 504
 * (connection refused, reset or timed out, host not found; 502 for a broken answer) with this text.
 */
const PROXY_UNREACHABLE = /^Error occurred while trying to proxy/;

/**
 * Who refused and why: Argo CD's gRPC-gateway errors are `{ error, code, message }`; Backstage's
 * own (the proxy without such an endpoint, a caller without a Backstage token) are
 * `{ error: { name, message } }`; anything else (the proxy could not reach Argo CD) has no JSON.
 */
function failure(
  response: Response,
  body: any,
  proxyPath: string,
  text = '',
): ArgoCdApiError {
  if (body === undefined && PROXY_UNREACHABLE.test(text)) {
    return new ArgoCdApiError(
      `The proxy to Argo CD answered ${response.status}: it could not reach Argo CD's API (is argocd-server running, at the target of proxy.endpoints['${proxyPath}/v1/clusters']?)`,
      response.status,
    );
  }
  let who = 'Argo CD';
  let detail: string | undefined =
    typeof body?.message === 'string' ? body.message : undefined;
  if (body?.error && typeof body.error === 'object') {
    who = "Backstage's proxy";
    detail = typeof body.error.message === 'string' ? body.error.message : '';
  } else if (body === undefined) {
    who = 'The proxy to Argo CD';
  }
  detail ||= response.statusText;
  if (who !== 'Argo CD' && response.status === 404) {
    // the documented endpoint is the clusters API only (GET), under the panel's proxy path
    detail += ` (is proxy.endpoints['${proxyPath}/v1/clusters'] configured on the backend?)`;
  }
  return new ArgoCdApiError(
    `${who} answered ${response.status}${detail ? `: ${detail}` : ''}`,
    response.status,
  );
}

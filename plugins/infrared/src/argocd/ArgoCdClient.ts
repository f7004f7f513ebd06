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
    if (!response.ok) {
      // Argo CD's gRPC-gateway errors carry `message`; the proxy's own carry `error.message`.
      const detail =
        (typeof body?.message === 'string' && body.message) ||
        (typeof body?.error?.message === 'string' && body.error.message) ||
        response.statusText;
      throw new ArgoCdApiError(
        `Argo CD answered ${response.status}${detail ? `: ${detail}` : ''}`,
        response.status,
      );
    }
    if (body === undefined) {
      throw new ArgoCdApiError(
        'Argo CD answered with no JSON',
        response.status,
      );
    }
    return body;
  }
}

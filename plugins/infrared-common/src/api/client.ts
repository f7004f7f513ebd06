import type { FieldError } from '../fieldErrors';
import type { RegisterClusterRequest } from './request';
import type { ClusterList, ClusterView, HealthStatus } from './views';

export interface DiscoveryLike {
  getBaseUrl(pluginId: string): Promise<string>;
}

export interface FetchLike {
  fetch: typeof fetch;
}

/** The Infrared REST API, as the frontend sees it. */
export interface InfraredApi {
  listClusters(): Promise<ClusterView[]>;
  getCluster(name: string): Promise<ClusterView>;
  registerCluster(request: RegisterClusterRequest): Promise<ClusterView>;
  removeCluster(name: string): Promise<void>;
  health(): Promise<HealthStatus>;
}

/** A non-2xx answer, with the server's own message (Backstage's error body) when it sent one. */
export class InfraredApiError extends Error {
  readonly name = 'ResponseError';
  constructor(
    message: string,
    readonly status: number,
    readonly statusText: string,
    readonly fieldErrors?: FieldError[],
    readonly body?: unknown,
  ) {
    super(message);
  }

  static async fromResponse(response: Response): Promise<InfraredApiError> {
    const text = await response.text().catch(() => '');
    let body: any;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = undefined;
    }
    const serverMessage =
      body?.error?.message ??
      (typeof body?.message === 'string' ? body.message : undefined);
    const fallback = text && !body ? text.slice(0, 500) : response.statusText;
    const errors = body?.errors ?? body?.error?.errors;
    const message = `Request failed with ${response.status} ${
      response.statusText
    }: ${serverMessage ?? fallback}`;
    return new InfraredApiError(
      message.replace(/:\s*$/, ''),
      response.status,
      response.statusText,
      Array.isArray(errors) ? errors : undefined,
      body ?? (text || undefined),
    );
  }
}

export const INFRARED_PLUGIN_ID = 'infrared';

/** Typed client of the Infrared backend plugin, through Backstage's discovery and fetch APIs. */
export class InfraredApiClient implements InfraredApi {
  private readonly discoveryApi: DiscoveryLike;
  private readonly fetchApi: FetchLike;

  constructor(options: { discoveryApi: DiscoveryLike; fetchApi: FetchLike }) {
    this.discoveryApi = options.discoveryApi;
    this.fetchApi = options.fetchApi;
  }

  async listClusters(): Promise<ClusterView[]> {
    const list = await this.request<ClusterList>('GET', '/v1/clusters');
    return list.items;
  }

  getCluster(name: string): Promise<ClusterView> {
    return this.request('GET', `/v1/clusters/${encodeURIComponent(name)}`);
  }

  registerCluster(request: RegisterClusterRequest): Promise<ClusterView> {
    return this.request('POST', '/v1/clusters', request);
  }

  async removeCluster(name: string): Promise<void> {
    await this.request('DELETE', `/v1/clusters/${encodeURIComponent(name)}`);
  }

  health(): Promise<HealthStatus> {
    return this.request('GET', '/health');
  }

  private async request<T>(
    method: string,
    path: string,
    body?: unknown,
  ): Promise<T> {
    const base = await this.discoveryApi.getBaseUrl(INFRARED_PLUGIN_ID);
    const init: RequestInit = { method };
    if (body !== undefined) {
      init.headers = { 'Content-Type': 'application/json' };
      init.body = JSON.stringify(body);
    }
    const response = await this.fetchApi.fetch(
      `${base.replace(/\/+$/, '')}${path}`,
      init,
    );
    if (!response.ok) throw await InfraredApiError.fromResponse(response);
    if (response.status === 204) return undefined as T;
    const text = await response.text();
    return (text ? JSON.parse(text) : undefined) as T;
  }
}

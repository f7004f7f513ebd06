import type { FieldError } from '../fieldErrors';
import {
  DefaultApiClient,
  pluginId,
  type ClusterTemplate as ClusterTemplateView,
  type ProvisionLog,
  type TypedResponse,
} from '../schema/openapi';
import type {
  ProvisionAction,
  ProvisioningRunnerView,
} from '../provisioning/types';
import type {
  ClusterAllowlist,
  ClusterAllowlistView,
  ClusterRemovalView,
  OrganizationView,
  ProductPlacementView,
  ReleaseZoneApprovalView,
  ZoneView,
} from '../placement';
import type { ClusterListPage, ClusterListParams } from '../clusters/list';
import type { RegisterClusterRequest } from './request';
import type { ClusterView, HealthStatus } from './views';

/** @public */
export interface DiscoveryLike {
  getBaseUrl(pluginId: string): Promise<string>;
}

/** @public */
export interface FetchLike {
  fetch: typeof fetch;
}

/**
 * The Infrared REST API, as the frontend sees it.
 *
 * @public
 */
export interface InfraredApi {
  listClusters(): Promise<ClusterView[]>;
  /** A page of the clusters that match the filters, sorted by the backend (GET /v1/clusters's query). */
  listClusterPage(query: ClusterListParams): Promise<ClusterListPage>;
  getCluster(name: string): Promise<ClusterView>;
  registerCluster(request: RegisterClusterRequest): Promise<ClusterView>;
  /** Removes a workload cluster; answers the zones that stop and the allowlists it was taken off. */
  removeCluster(name: string): Promise<ClusterRemovalView>;
  health(): Promise<HealthStatus>;
  /** Every Organization with its cluster allowlist. */
  listOrganizations(): Promise<OrganizationView[]>;
  /** An org's allowlist, and its names no Cluster has (`gone`). */
  getClusterAllowlist(org: string): Promise<ClusterAllowlistView>;
  /** Replaces an org's cluster allowlist (platform admins). */
  replaceClusterAllowlist(
    org: string,
    clusters: string[],
  ): Promise<ClusterAllowlist>;
  /** Every zone of every Product, with the cluster it runs on. */
  listZones(): Promise<ZoneView[]>;
  getProductPlacement(
    namespace: string,
    name: string,
  ): Promise<ProductPlacementView>;
  /** Sets a zone's cluster (`""`: the management cluster); answers the placement after it. */
  setZoneCluster(
    namespace: string,
    name: string,
    zone: string,
    cluster: string,
  ): Promise<ProductPlacementView>;
  /**
   * Approves a zone of a Release that awaits a human approval (org admins of the Product's org,
   * platform admins); the release gate then promotes it.
   */
  approveReleaseZone(
    namespace: string,
    name: string,
    release: string,
    zone: string,
  ): Promise<ReleaseZoneApprovalView>;
  /** The cluster templates the portal offers (the register form's "Build with OpenTofu"). */
  listClusterTemplates(): Promise<ClusterTemplateView[]>;
  /** The templates, and whether the OpenTofu Jobs can run yet. */
  getClusterTemplates(): Promise<{
    items: ClusterTemplateView[];
    runner: ProvisioningRunnerView;
  }>;
  /**
   * Sets a built cluster's OpenTofu action; apply and destroy need `acknowledgeBillable` true
   * (real, billable cloud resources).
   */
  setProvisionAction(
    name: string,
    action: ProvisionAction,
    acknowledgeBillable?: boolean,
  ): Promise<ClusterView>;
  /** The last OpenTofu Job's log, credentials redacted. */
  getProvisionLog(name: string): Promise<ProvisionLog>;
}

/**
 * A non-2xx answer, with the server's own message (Backstage's error body) when it sent one.
 *
 * @public
 */
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

/** @public */
export const INFRARED_PLUGIN_ID = pluginId;

/**
 * Typed client of the Infrared backend plugin, through Backstage's discovery and fetch APIs: the
 * client generated from openapi.yaml (`DefaultApiClient`), with Backstage's error body turned
 * into an InfraredApiError and the list unwrapped.
 *
 * @public
 */
export class InfraredApiClient implements InfraredApi {
  private readonly api: DefaultApiClient;

  constructor(options: { discoveryApi: DiscoveryLike; fetchApi: FetchLike }) {
    const { discoveryApi, fetchApi } = options;
    this.api = new DefaultApiClient({
      discoveryApi: {
        getBaseUrl: async id =>
          (await discoveryApi.getBaseUrl(id)).replace(/\/+$/, ''),
      },
      fetchApi,
    });
  }

  async listClusters(): Promise<ClusterView[]> {
    const list = await this.read(this.api.listClusters({}));
    return list.items;
  }

  async listClusterPage(query: ClusterListParams): Promise<ClusterListPage> {
    const list = await this.read(this.api.listClusters({ query }));
    return {
      items: list.items,
      total: list.total ?? list.items.length,
      ...(list.continue ? { continue: list.continue } : {}),
    };
  }

  getCluster(name: string): Promise<ClusterView> {
    return this.read(this.api.getCluster({ path: { name } }));
  }

  registerCluster(request: RegisterClusterRequest): Promise<ClusterView> {
    return this.read(this.api.registerCluster({ body: request }));
  }

  removeCluster(name: string): Promise<ClusterRemovalView> {
    return this.read(this.api.removeCluster({ path: { name } }));
  }

  health(): Promise<HealthStatus> {
    return this.read(this.api.getHealth({}));
  }

  async listOrganizations(): Promise<OrganizationView[]> {
    const list = await this.read(this.api.listOrganizations({}));
    return list.items;
  }

  getClusterAllowlist(org: string): Promise<ClusterAllowlistView> {
    return this.read(this.api.getClusterAllowlist({ path: { org } }));
  }

  replaceClusterAllowlist(
    org: string,
    clusters: string[],
  ): Promise<ClusterAllowlist> {
    return this.read(
      this.api.replaceClusterAllowlist({ path: { org }, body: { clusters } }),
    );
  }

  async listZones(): Promise<ZoneView[]> {
    const list = await this.read(this.api.listZones({}));
    return list.items;
  }

  getProductPlacement(
    namespace: string,
    name: string,
  ): Promise<ProductPlacementView> {
    return this.read(
      this.api.getProductPlacement({ path: { namespace, name } }),
    );
  }

  setZoneCluster(
    namespace: string,
    name: string,
    zone: string,
    cluster: string,
  ): Promise<ProductPlacementView> {
    return this.read(
      this.api.setZoneCluster({
        path: { namespace, name, zone },
        body: { cluster },
      }),
    );
  }

  approveReleaseZone(
    namespace: string,
    name: string,
    release: string,
    zone: string,
  ): Promise<ReleaseZoneApprovalView> {
    return this.read(
      this.api.approveReleaseZone({
        path: { namespace, name, release, zone },
      }),
    );
  }

  async listClusterTemplates(): Promise<ClusterTemplateView[]> {
    return (await this.getClusterTemplates()).items;
  }

  async getClusterTemplates(): Promise<{
    items: ClusterTemplateView[];
    runner: ProvisioningRunnerView;
  }> {
    const list = await this.read(this.api.listClusterTemplates({}));
    return { items: list.items, runner: list.runner ?? { ready: true } };
  }

  setProvisionAction(
    name: string,
    action: ProvisionAction,
    acknowledgeBillable?: boolean,
  ): Promise<ClusterView> {
    return this.read(
      this.api.setProvisionAction({
        path: { name },
        body:
          acknowledgeBillable === undefined
            ? { action }
            : { action, acknowledgeBillable },
      }),
    );
  }

  getProvisionLog(name: string): Promise<ProvisionLog> {
    return this.read(this.api.getProvisionLog({ path: { name } }));
  }

  private async read<T>(pending: Promise<TypedResponse<T>>): Promise<T> {
    const response = await pending;
    if (!response.ok) {
      throw await InfraredApiError.fromResponse(response as Response);
    }
    if (response.status === 204) return undefined as T;
    const text = await response.text();
    return (text ? JSON.parse(text) : undefined) as T;
  }
}

import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import {
  clusterRemovalMessage,
  goneAllowlistEntries,
  pageClusters,
  readClusterListParams,
  type ClusterTemplate,
  type ProvisioningRunnerView,
  type ClusterView,
  type HealthStatus,
  type OrganizationView,
  type ProductPlacementView,
  type ZoneView,
} from '@infrared-clusters/plugin-infrared-common';

export const BASE = 'http://backstage.test/api/infrared';

export interface RecordedRequest {
  method: string;
  path: string;
  body?: any;
}

/**
 * The Infrared REST API over msw, so tests drive the real `InfraredApiClient` and check the wire
 * format. Clusters live in `state.clusters`; `onGet` may change a cluster each time it is read.
 */
function freshState() {
  return {
    clusters: [] as ClusterView[],
    requests: [] as RecordedRequest[],
    /** The query of each GET /v1/clusters, in order (its parameters as sent). */
    listQueries: [] as Record<string, string>[],
    /** Set to answer every list request with this status and message. */
    listFailure: undefined as undefined | { status: number; message: string },
    /** Set to answer POST with this status and body. */
    postFailure: undefined as undefined | { status: number; body: unknown },
    /** Called on every GET of one cluster; returns the cluster to answer with. */
    onGet: undefined as
      | undefined
      | ((c: ClusterView, reads: number) => ClusterView),
    reads: 0,
    /** Organizations (GET /v1/orgs, the allowlist routes). */
    orgs: [] as OrganizationView[],
    /** Product zones (GET /v1/zones). */
    zones: [] as ZoneView[],
    /** Placement answers by `<namespace>/<name>`; the zone-cluster PUT calls `onSetZoneCluster`. */
    placements: {} as Record<string, ProductPlacementView>,
    onSetZoneCluster: undefined as
      | undefined
      | ((product: string, zone: string, cluster: string) => void),
    /**
     * The approval POST calls `onApproveZone`, which may change `placements`; set `approvalFailure`
     * to answer it with this status and body instead.
     */
    onApproveZone: undefined as
      | undefined
      | ((product: string, release: string, zone: string) => void),
    approvalFailure: undefined as undefined | { status: number; body: unknown },
    /** Set to answer the allowlist PUT with this status and body. */
    allowlistFailure: undefined as
      | undefined
      | { status: number; body: unknown },
    /** The cluster templates (GET /v1/provisioning/templates; not recorded in `requests`). */
    templates: [] as ClusterTemplate[],
    /** GET /health's answer (not recorded in `requests`). */
    health: { status: 'ok' } as HealthStatus,
    /** The templates' `runner`, one per GET (the last one stays); empty: ready. */
    runners: [] as ProvisioningRunnerView[],
  };
}

export function createFakeApi() {
  const state = freshState();
  const server = setupServer(
    http.get(`${BASE}/v1/clusters`, ({ request }) => {
      state.requests.push({ method: 'GET', path: '/v1/clusters' });
      const query = Object.fromEntries(new URL(request.url).searchParams);
      state.listQueries.push(query);
      if (state.listFailure) {
        return HttpResponse.json(
          { error: { name: 'Error', message: state.listFailure.message } },
          { status: state.listFailure.status },
        );
      }
      // the backend's own reading, filters, sort and pages (-common), over state.clusters
      const read = readClusterListParams(query);
      if ('errors' in read) {
        return HttpResponse.json(
          { error: { name: 'InputError', message: read.errors[0].message } },
          { status: 400 },
        );
      }
      const { org, ...params } = read.params;
      const allowed = state.orgs.find(o => o.name === org)?.clusterAllowlist;
      return HttpResponse.json(
        pageClusters(state.clusters, {
          ...params,
          ...(org ? { names: new Set(allowed ?? []) } : {}),
        }),
      );
    }),
    http.get(`${BASE}/v1/clusters/:name`, ({ params }) => {
      state.requests.push({
        method: 'GET',
        path: `/v1/clusters/${params.name}`,
      });
      const index = state.clusters.findIndex(c => c.name === params.name);
      if (index < 0) {
        return HttpResponse.json(
          { error: { name: 'NotFoundError', message: 'no such cluster' } },
          { status: 404 },
        );
      }
      state.reads++;
      if (state.onGet) {
        state.clusters[index] = state.onGet(state.clusters[index], state.reads);
      }
      return HttpResponse.json(state.clusters[index]);
    }),
    http.post(`${BASE}/v1/clusters`, async ({ request }) => {
      const body = await request.json();
      state.requests.push({ method: 'POST', path: '/v1/clusters', body });
      if (state.postFailure) {
        return HttpResponse.json(state.postFailure.body as any, {
          status: state.postFailure.status,
        });
      }
      const b = body as any;
      const created: ClusterView = {
        name: b.name,
        type: 'workload',
        flavor: b.flavor,
        provider: b.provider,
        region: b.region,
        connection: b.inCluster ? 'inCluster' : 'kubeconfig',
        conditions: [],
        createdAt: new Date().toISOString(),
      };
      state.clusters.push(created);
      return HttpResponse.json(created, { status: 201 });
    }),
    http.get(`${BASE}/v1/orgs`, () => {
      state.requests.push({ method: 'GET', path: '/v1/orgs' });
      return HttpResponse.json({ items: state.orgs });
    }),
    http.get(`${BASE}/v1/zones`, () => {
      state.requests.push({ method: 'GET', path: '/v1/zones' });
      return HttpResponse.json({ items: state.zones });
    }),
    http.get(`${BASE}/v1/orgs/:org/cluster-allowlist`, ({ params }) => {
      const path = `/v1/orgs/${params.org}/cluster-allowlist`;
      state.requests.push({ method: 'GET', path });
      const org = state.orgs.find(o => o.name === params.org);
      if (!org) {
        return HttpResponse.json(
          { error: { name: 'NotFoundError', message: 'no such org' } },
          { status: 404 },
        );
      }
      return HttpResponse.json({
        clusters: org.clusterAllowlist,
        gone: goneAllowlistEntries(
          org.clusterAllowlist,
          state.clusters.map(c => c.name),
        ),
      });
    }),
    http.put(
      `${BASE}/v1/orgs/:org/cluster-allowlist`,
      async ({ params, request }) => {
        const body = (await request.json()) as any;
        const path = `/v1/orgs/${params.org}/cluster-allowlist`;
        state.requests.push({ method: 'PUT', path, body });
        if (state.allowlistFailure) {
          return HttpResponse.json(state.allowlistFailure.body as any, {
            status: state.allowlistFailure.status,
          });
        }
        const org = state.orgs.find(o => o.name === params.org)!;
        org.clusterAllowlist = [...body.clusters].sort();
        return HttpResponse.json({ clusters: org.clusterAllowlist });
      },
    ),
    http.get(`${BASE}/v1/products/:ns/:name/placement`, ({ params }) => {
      const key = `${params.ns}/${params.name}`;
      state.requests.push({
        method: 'GET',
        path: `/v1/products/${key}/placement`,
      });
      const placement = state.placements[key];
      if (!placement) {
        return HttpResponse.json(
          {
            error: {
              name: 'NotFoundError',
              message: `Product ${key} not found`,
            },
          },
          { status: 404 },
        );
      }
      return HttpResponse.json(placement);
    }),
    http.put(
      `${BASE}/v1/products/:ns/:name/zones/:zone/cluster`,
      async ({ params, request }) => {
        const body = (await request.json()) as any;
        const key = `${params.ns}/${params.name}`;
        state.requests.push({
          method: 'PUT',
          path: `/v1/products/${key}/zones/${params.zone}/cluster`,
          body,
        });
        state.onSetZoneCluster?.(key, String(params.zone), body.cluster);
        return HttpResponse.json(state.placements[key]);
      },
    ),
    http.post(
      `${BASE}/v1/products/:ns/:name/releases/:release/zones/:zone/approval`,
      async ({ params }) => {
        const key = `${params.ns}/${params.name}`;
        const { release, zone } = params as Record<string, string>;
        state.requests.push({
          method: 'POST',
          path: `/v1/products/${key}/releases/${release}/zones/${zone}/approval`,
        });
        if (state.approvalFailure) {
          return HttpResponse.json(state.approvalFailure.body as any, {
            status: state.approvalFailure.status,
          });
        }
        state.onApproveZone?.(key, release, zone);
        return HttpResponse.json({
          release,
          zone,
          phase: 'AwaitingApproval',
          approvedBy: 'user:default/olga',
          approvedAt: '2026-12-01T23:00:00Z',
        });
      },
    ),
    http.get(`${BASE}/health`, () => HttpResponse.json(state.health)),
    http.get(`${BASE}/v1/provisioning/templates`, () =>
      HttpResponse.json({
        items: state.templates,
        runner:
          state.runners.length > 1
            ? state.runners.shift()
            : state.runners[0] ?? { ready: true },
      }),
    ),
    http.delete(`${BASE}/v1/clusters/:name`, ({ params }) => {
      state.requests.push({
        method: 'DELETE',
        path: `/v1/clusters/${params.name}`,
      });
      state.clusters = state.clusters.filter(c => c.name !== params.name);
      const zones = state.zones.filter(
        z => z.clusterSet && z.cluster === params.name,
      );
      return HttpResponse.json({
        name: params.name,
        zones,
        allowlists: [],
        message: clusterRemovalMessage(String(params.name), zones, []),
      });
    }),
  );
  return { server, state };
}

/**
 * The fake API for one test file: listening for the file's tests, with its state and handlers
 * reset after each test (requests nobody handles fail the test).
 */
export function setUpFakeApi() {
  const api = createFakeApi();
  beforeAll(() => api.server.listen({ onUnhandledRequest: 'error' }));
  afterEach(() => {
    api.server.resetHandlers();
    Object.assign(api.state, freshState());
  });
  afterAll(() => api.server.close());
  return api;
}

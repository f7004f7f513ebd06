import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import type { ClusterView } from '@internal/plugin-infrared-common';

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
    /** Set to answer every list request with this status and message. */
    listFailure: undefined as undefined | { status: number; message: string },
    /** Set to answer POST with this status and body. */
    postFailure: undefined as undefined | { status: number; body: unknown },
    /** Called on every GET of one cluster; returns the cluster to answer with. */
    onGet: undefined as
      | undefined
      | ((c: ClusterView, reads: number) => ClusterView),
    reads: 0,
  };
}

export function createFakeApi() {
  const state = freshState();
  const server = setupServer(
    http.get(`${BASE}/v1/clusters`, () => {
      state.requests.push({ method: 'GET', path: '/v1/clusters' });
      if (state.listFailure) {
        return HttpResponse.json(
          { error: { name: 'Error', message: state.listFailure.message } },
          { status: state.listFailure.status },
        );
      }
      return HttpResponse.json({ items: state.clusters });
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
    http.delete(`${BASE}/v1/clusters/:name`, ({ params }) => {
      state.requests.push({
        method: 'DELETE',
        path: `/v1/clusters/${params.name}`,
      });
      state.clusters = state.clusters.filter(c => c.name !== params.name);
      return new HttpResponse(null, { status: 204 });
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

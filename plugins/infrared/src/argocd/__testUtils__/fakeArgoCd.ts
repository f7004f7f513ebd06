import { ArgoCdOpenApi } from './argoCdOpenApi';

/** An item of Argo CD's `v1alpha1ClusterList` (the fields the fake fills). */
export interface FakeArgoCluster {
  server: string;
  name: string;
  config?: Record<string, unknown>;
  connectionState?: { status: string; message?: string; attemptedAt?: string };
  info?: {
    connectionState?: {
      status: string;
      message?: string;
      attemptedAt?: string;
    };
    serverVersion?: string;
    applicationsCount?: number;
  };
  serverVersion?: string;
}

export interface FakeArgoRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  authorization?: string;
  body?: unknown;
}

export interface FakeArgoReply {
  status: number;
  body: unknown;
}

export interface RecordedArgoRequest {
  method: string;
  path: string;
  operationId?: string;
  authorization?: string;
  status: number;
}

/** Argo CD's answer to a request without a valid session (`server.ErrNoSession`, gRPC Unauthenticated). */
const NO_SESSION = {
  status: 401,
  body: {
    error: 'no session information',
    code: 16,
    message: 'no session information',
  },
};

/**
 * A small Argo CD API server (no transport: see `startFakeArgoCdServer` and `argoCdMswHandler`).
 * Every request is checked against Argo CD's OpenAPI description and so is every answer; what
 * the description does not allow goes to `violations` (the tests expect none) and a request is
 * answered 400. A request without `Authorization: Bearer <token>` gets Argo CD's 401. Only
 * `ClusterService_List` is served; other operations of the description answer 501 and count as
 * violations, so a client asking for more than the fake knows fails its test.
 */
export class FakeArgoCd {
  /** Argo CD's cluster list, as `GET /api/v1/clusters` answers it. */
  clusters: FakeArgoCluster[] = [];
  readonly requests: RecordedArgoRequest[] = [];
  readonly violations: string[] = [];
  /** Set to answer every authorized request with this gRPC-gateway error. */
  failure?: { status: number; code: number; message: string };
  private readonly openApi = ArgoCdOpenApi.load();

  constructor(readonly token: string) {}

  handle(request: FakeArgoRequest): FakeArgoReply {
    const record: RecordedArgoRequest = {
      method: request.method,
      path: request.path,
      authorization: request.authorization,
      status: 0,
    };
    this.requests.push(record);
    const reply = this.answer(request, record);
    record.status = reply.status;
    return reply;
  }

  private answer(
    request: FakeArgoRequest,
    record: RecordedArgoRequest,
  ): FakeArgoReply {
    const where = `${request.method} ${request.path}`;
    const match = this.openApi.match(request);
    if (!match) {
      this.violations.push(`${where}: no such operation in Argo CD's API`);
      return error(404, 5, 'Not Found');
    }
    record.operationId = match.operationId;
    if (match.violations.length) {
      this.violations.push(...match.violations);
      return error(400, 3, match.violations.join('; '));
    }
    if (request.authorization !== `Bearer ${this.token}`) return NO_SESSION;
    const reply = this.operation(match.operationId, match.query);
    const bad = this.openApi.checkResponse(
      match.operationId,
      reply.status,
      reply.body,
    );
    this.violations.push(...bad);
    return reply;
  }

  private operation(
    operationId: string,
    query: Record<string, string[]>,
  ): FakeArgoReply {
    if (this.failure) {
      const { status, code, message } = this.failure;
      return error(status, code, message);
    }
    if (operationId !== 'ClusterService_List') {
      this.violations.push(`${operationId}: not served by the fake`);
      return error(501, 12, `${operationId} is not served by the fake`);
    }
    const [server] = query.server ?? [];
    const [name] = query.name ?? [];
    const items = this.clusters.filter(
      c => (!server || c.server === server) && (!name || c.name === name),
    );
    return { status: 200, body: { metadata: {}, items } };
  }
}

function error(status: number, code: number, message: string): FakeArgoReply {
  return { status, body: { error: message, code, message } };
}

/**
 * A cluster as Argo CD lists it, with the deprecated top-level `connectionState` filled from
 * `info.connectionState` the way Argo CD's `toAPIResponse` does. Argo CD never sends the config's
 * credentials back (`Sanitized()`), so neither does the fake.
 */
export function argoCluster(
  name: string,
  server: string,
  state?: { status: string; message?: string; attemptedAt?: string },
): FakeArgoCluster {
  const cluster: FakeArgoCluster = {
    name,
    server,
    config: { tlsClientConfig: { insecure: false } },
    info: { applicationsCount: 1 },
  };
  if (state) {
    cluster.info!.connectionState = state;
    cluster.connectionState = state;
  }
  return cluster;
}

import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Counter, Gauge, Registry } from 'prom-client';
import type { RegistrarMeter } from './metrics';

type Attributes = Record<string, string>;

/** The attributes with their keys sorted, so each series prints its labels in one order. */
const sortedLabels = (attributes: Attributes = {}): Attributes =>
  Object.fromEntries(
    Object.keys(attributes)
      .sort()
      .map(k => [k, attributes[k]]),
  );

/**
 * A RegistrarMeter kept in memory and rendered in the Prometheus text format (version 0.0.4) by
 * prom-client, on a registry of its own (not prom-client's global one): what the CLI serves on
 * --metrics-bind-address, with upstream's metric names. prom-client wants a metric's label names when it is
 * made and an OpenTelemetry-style meter names them only on the first add or record, so each metric is made
 * then, with that call's label names; a later call with other label names throws (RegistrarMetrics never
 * does: each of its series has one fixed set).
 */
export class PrometheusMeter implements RegistrarMeter {
  readonly registry = new Registry();

  private lazily<M>(make: (labelNames: string[]) => M) {
    let metric: M | undefined;
    return (labels: Attributes) => (metric ??= make(Object.keys(labels)));
  }

  createCounter(name: string, options?: { description?: string }) {
    const counter = this.lazily(
      labelNames =>
        new Counter({
          name,
          help: options?.description ?? name,
          labelNames,
          registers: [this.registry],
        }),
    );
    return {
      add(value: number, attributes?: Attributes) {
        const labels = sortedLabels(attributes);
        counter(labels).inc(labels, value);
      },
    };
  }

  createGauge(name: string, options?: { description?: string }) {
    const gauge = this.lazily(
      labelNames =>
        new Gauge({
          name,
          help: options?.description ?? name,
          labelNames,
          registers: [this.registry],
        }),
    );
    return {
      record(value: number, attributes?: Attributes) {
        const labels = sortedLabels(attributes);
        gauge(labels).set(labels, value);
      },
    };
  }

  /** The exposition text. */
  render(): Promise<string> {
    return this.registry.metrics();
  }
}

/** A Go listen address (`:8081`, `127.0.0.1:0`, `[::1]:9090`, `localhost:8080`) as host and port. */
export function parseBindAddress(address: string): {
  host?: string;
  port: number;
} {
  const m = /^(?:\[([^\]]*)\]|([^:]*)):(\d{1,5})$/.exec(address.trim());
  const port = m ? Number(m[3]) : NaN;
  if (!m || !(port >= 0 && port <= 65535)) {
    throw new Error(
      `"${address}" is not a listen address: use host:port or :port`,
    );
  }
  const host = m[1] ?? m[2];
  return host ? { host, port } : { port };
}

type Answer = { status: number; body: string; contentType?: string };

export type Handler = (
  req: IncomingMessage,
) => Answer | undefined | Promise<Answer | undefined>;

/** An HTTP server on `address` answering GETs through `handler` (404 otherwise); resolves once listening. */
export function serveHttp(
  address: string,
  handler: Handler,
): Promise<{ server: Server; address: string; close(): Promise<void> }> {
  const { host, port } = parseBindAddress(address);
  const answerOf = async (req: IncomingMessage): Promise<Answer> => {
    try {
      const answer = req.method === 'GET' ? await handler(req) : undefined;
      return answer ?? { status: 404, body: 'not found\n' };
    } catch {
      return { status: 500, body: 'internal error\n' };
    }
  };
  const server = createServer(async (req, res) => {
    const { status, body, contentType } = await answerOf(req);
    res.writeHead(status, {
      'Content-Type': contentType ?? 'text/plain; charset=utf-8',
      'Content-Length': Buffer.byteLength(body),
    });
    res.end(body);
  });
  // Probes and scrapes are short; nothing keeps a connection open for long.
  server.keepAliveTimeout = 5_000;
  server.headersTimeout = 10_000;
  server.requestTimeout = 10_000;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host, port }, () => {
      server.off('error', reject);
      const a = server.address() as AddressInfo;
      const shown = a.family === 'IPv6' ? `[${a.address}]` : a.address;
      resolve({
        server,
        address: `${shown}:${a.port}`,
        close: () =>
          new Promise<void>(done => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}

/** `/healthz` and `/readyz`, as controller-runtime's ping checks answer them. */
export function healthHandler(ready: () => boolean): Handler {
  return req => {
    const path = (req.url ?? '').split('?')[0];
    if (path === '/healthz') return { status: 200, body: 'ok' };
    if (path === '/readyz') {
      return ready()
        ? { status: 200, body: 'ok' }
        : { status: 500, body: 'not ready' };
    }
    return undefined;
  };
}

/** `/metrics` in the Prometheus text format. */
export function metricsHandler(meter: PrometheusMeter): Handler {
  return async req =>
    (req.url ?? '').split('?')[0] === '/metrics'
      ? {
          status: 200,
          body: await meter.render(),
          contentType: meter.registry.contentType,
        }
      : undefined;
}

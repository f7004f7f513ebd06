import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RegistrarMeter } from './metrics';

type Attributes = Record<string, string>;

interface Family {
  type: 'counter' | 'gauge';
  help?: string;
  series: Map<string, { labels: Attributes; value: number }>;
}

const escapeLabel = (v: string) =>
  v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
const escapeHelp = (v: string) =>
  v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');

function labelKey(labels: Attributes = {}): string {
  return Object.keys(labels)
    .sort()
    .map(k => `${k}="${escapeLabel(labels[k])}"`)
    .join(',');
}

/**
 * A RegistrarMeter kept in memory and rendered in the Prometheus text format (version 0.0.4):
 * what the CLI serves on --metrics-bind-address, with upstream's metric names.
 */
export class PrometheusMeter implements RegistrarMeter {
  private readonly families = new Map<string, Family>();

  private family(name: string, type: Family['type'], help?: string): Family {
    let f = this.families.get(name);
    if (!f) {
      f = { type, help, series: new Map() };
      this.families.set(name, f);
    }
    return f;
  }

  createCounter(name: string, options?: { description?: string }) {
    const f = this.family(name, 'counter', options?.description);
    return {
      add(value: number, attributes?: Attributes) {
        const key = labelKey(attributes);
        const s = f.series.get(key);
        if (s) s.value += value;
        else f.series.set(key, { labels: { ...attributes }, value });
      },
    };
  }

  createGauge(name: string, options?: { description?: string }) {
    const f = this.family(name, 'gauge', options?.description);
    return {
      record(value: number, attributes?: Attributes) {
        f.series.set(labelKey(attributes), {
          labels: { ...attributes },
          value,
        });
      },
    };
  }

  /** The exposition text, families and series in a stable order. */
  render(): string {
    const lines: string[] = [];
    for (const name of [...this.families.keys()].sort()) {
      const f = this.families.get(name)!;
      if (f.help) lines.push(`# HELP ${name} ${escapeHelp(f.help)}`);
      lines.push(`# TYPE ${name} ${f.type}`);
      for (const key of [...f.series.keys()].sort()) {
        const s = f.series.get(key)!;
        lines.push(`${name}${key ? `{${key}}` : ''} ${s.value}`);
      }
    }
    return `${lines.join('\n')}\n`;
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

export type Handler = (
  req: IncomingMessage,
) => { status: number; body: string; contentType?: string } | undefined;

/** An HTTP server on `address` answering GETs through `handler` (404 otherwise); resolves once listening. */
export function serveHttp(
  address: string,
  handler: Handler,
): Promise<{ server: Server; address: string; close(): Promise<void> }> {
  const { host, port } = parseBindAddress(address);
  const server = createServer((req, res) => {
    const answer = req.method === 'GET' ? handler(req) : undefined;
    const { status, body, contentType } = answer ?? {
      status: 404,
      body: 'not found\n',
    };
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
  return req =>
    (req.url ?? '').split('?')[0] === '/metrics'
      ? {
          status: 200,
          body: meter.render(),
          contentType: 'text/plain; version=0.0.4; charset=utf-8',
        }
      : undefined;
}

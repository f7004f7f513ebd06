/*
 * A loopback HTTP proxy in front of the management API server that records every request's method
 * and path: the registrar, pointed at it with a bearer token, is seen request by request (its
 * client cannot tell; the token goes through unchanged, TLS to the API server is the proxy's).
 */
import http from 'node:http';
import https from 'node:https';
import type net from 'node:net';

export interface SeenRequest {
  method: string;
  path: string;
}

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export async function countingProxy(server: string, ca: string) {
  const upstream = new URL(server);
  const seen: SeenRequest[] = [];
  const agent = new https.Agent({ ca, keepAlive: true });
  const proxy = http.createServer((req, res) => {
    seen.push({ method: req.method ?? '', path: req.url ?? '' });
    const headers = { ...req.headers, host: upstream.host };
    const up = https.request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers,
        agent,
      },
      answer => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    up.on('error', e => {
      res.writeHead(502);
      res.end(String(e));
    });
    req.pipe(up);
  });
  await new Promise<void>(resolve => proxy.listen(0, '127.0.0.1', resolve));
  const { port } = proxy.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    /** The requests that change something, as "METHOD path". */
    writes: () =>
      seen.filter(r => WRITES.has(r.method)).map(r => `${r.method} ${r.path}`),
    close: () =>
      new Promise<void>(resolve => {
        agent.destroy();
        proxy.closeAllConnections();
        proxy.close(() => resolve());
      }),
  };
}

/** A kubeconfig for the proxy's `server` with a bearer token (no client certificate). */
export function tokenKubeconfig(server: string, token: string): string {
  return [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    '  - name: management',
    // plain HTTP on loopback: @kubernetes/client-node allows it only with this set
    `    cluster: {server: "${server}", insecure-skip-tls-verify: true}`,
    'users:',
    '  - name: registrar',
    `    user: {token: "${token}"}`,
    'contexts:',
    '  - name: registrar',
    '    context: {cluster: management, user: registrar}',
    'current-context: registrar',
    '',
  ].join('\n');
}

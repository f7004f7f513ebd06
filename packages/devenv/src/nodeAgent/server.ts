/**
 * The kubelet's HTTPS endpoints the API server proxies to (pods/log), on 127.0.0.1: GET
 * /containerLogs/<namespace>/<pod>/<container> with the kubelet's query parameters, and /healthz.
 * The API server of devenv is started without --kubelet-certificate-authority and
 * --kubelet-client-certificate, so, as for a kubelet without webhook authentication, the
 * certificate is self-signed and the caller is not authenticated: it listens on loopback only.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { parseLog, renderLog, type LogOptions } from './logs';

export interface KubeletServer {
  port: number;
  close(): Promise<void>;
}

export interface KubeletServerOptions {
  dataDir: string;
  port: number;
  findLog(
    namespace: string,
    pod: string,
    container?: string,
  ): { file: string; done(): boolean } | undefined;
}

function servingCert(dir: string): { cert: string; key: string } {
  const cert = path.join(dir, 'kubelet.crt');
  const key = path.join(dir, 'kubelet.key');
  if (!fs.existsSync(cert) || !fs.existsSync(key)) {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-keyout',
        key,
        '-out',
        cert,
        '-days',
        '3650',
        '-subj',
        '/CN=devenv-node-agent',
        '-addext',
        'subjectAltName=IP:127.0.0.1,DNS:localhost',
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
  }
  return {
    cert: fs.readFileSync(cert, 'utf8'),
    key: fs.readFileSync(key, 'utf8'),
  };
}

function logOptions(query: URLSearchParams): LogOptions {
  const num = (k: string) => (query.has(k) ? Number(query.get(k)) : undefined);
  const options: LogOptions = {
    tailLines: num('tailLines'),
    limitBytes: num('limitBytes'),
    timestamps: query.get('timestamps') === 'true',
  };
  const sinceSeconds = num('sinceSeconds');
  if (sinceSeconds !== undefined)
    options.since = new Date(Date.now() - sinceSeconds * 1000);
  if (query.has('sinceTime')) options.since = new Date(query.get('sinceTime')!);
  return options;
}

export async function startKubeletServer(
  options: KubeletServerOptions,
): Promise<KubeletServer> {
  const server = https.createServer(
    servingCert(options.dataDir),
    (req, res) => {
      const url = new URL(req.url ?? '/', 'https://127.0.0.1');
      if (url.pathname === '/healthz') {
        res.end('ok');
        return;
      }
      const m = /^\/containerLogs\/([^/]+)\/([^/]+)(?:\/([^/]+))?$/.exec(
        url.pathname,
      );
      if (req.method !== 'GET' || !m) {
        res.statusCode = 404;
        res.end('not found');
        return;
      }
      const [, namespace, pod, container] = m.map(decodeURIComponent);
      const found = options.findLog(namespace, pod, container);
      if (!found || !fs.existsSync(found.file)) {
        res.statusCode = 404;
        res.end(
          `container ${
            container ?? ''
          } of pod ${namespace}/${pod} is not on this node`,
        );
        return;
      }
      const opts = logOptions(url.searchParams);
      res.setHeader('Content-Type', 'text/plain');
      const entries = parseLog(fs.readFileSync(found.file, 'utf8'));
      if (url.searchParams.get('follow') !== 'true') {
        res.end(renderLog(entries, opts));
        return;
      }
      // follow: what there is, then each new line until the container has ended
      res.write(renderLog(entries, opts));
      let offset = fs.statSync(found.file).size;
      const timer = setInterval(() => {
        const size = fs.statSync(found.file).size;
        if (size > offset) {
          const fd = fs.openSync(found.file, 'r');
          const buf = Buffer.alloc(size - offset);
          fs.readSync(fd, buf, 0, buf.length, offset);
          fs.closeSync(fd);
          offset = size;
          res.write(
            renderLog(parseLog(buf.toString('utf8')), {
              timestamps: opts.timestamps,
            }),
          );
        } else if (found.done()) {
          clearInterval(timer);
          res.end();
        }
      }, 200);
      req.on('close', () => clearInterval(timer));
    },
  );
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', resolve);
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>(resolve => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}

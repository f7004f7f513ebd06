import { createServer, IncomingMessage, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { http, HttpResponse } from 'msw';
import type { FakeArgoCd, FakeArgoReply } from './fakeArgoCd';

/** Serves the fake on a random loopback port; `url` is its root (Argo CD's API is under `/api`). */
export async function startFakeArgoCdServer(
  fake: FakeArgoCd,
): Promise<{ url: string; stop: () => Promise<void> }> {
  const server: Server = createServer((req, res) => {
    reply(fake, req).then(
      ({ status, body }) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      },
      error => {
        fake.violations.push(`fake Argo CD crashed: ${error.stack}`);
        res.writeHead(500).end();
      },
    );
  });
  await new Promise<void>(r => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    stop: () => new Promise<void>(r => server.close(() => r())),
  };
}

async function reply(
  fake: FakeArgoCd,
  req: IncomingMessage,
): Promise<FakeArgoReply> {
  const url = new URL(req.url!, 'http://fake');
  let raw = '';
  for await (const chunk of req) raw += chunk;
  let body: unknown;
  try {
    body = raw ? JSON.parse(raw) : undefined;
  } catch {
    fake.violations.push(`${req.method} ${url.pathname}: body is not JSON`);
    return {
      status: 400,
      body: { error: 'bad JSON', code: 3, message: 'bad JSON' },
    };
  }
  return fake.handle({
    method: req.method!,
    path: url.pathname,
    query: url.searchParams,
    authorization: req.headers.authorization,
    body,
  });
}

/**
 * An msw handler that stands for Backstage's proxy endpoint `proxyUrl` (e.g.
 * `http://backstage.test/api/proxy/argocd/api`) in front of the fake: like the proxy, it sends
 * the configured token instead of the caller's Backstage token, under Argo CD's `/api` prefix.
 * The real proxy in front of the fake is tested in `proxy.integration.test.ts`.
 */
export function argoCdMswHandler(fake: FakeArgoCd, proxyUrl: string) {
  return http.all(`${proxyUrl}/*`, async ({ request }) => {
    const url = new URL(request.url);
    const text = await request.text();
    const { status, body } = fake.handle({
      method: request.method,
      path: `/api${url.pathname.slice(new URL(proxyUrl).pathname.length)}`,
      query: url.searchParams,
      authorization: `Bearer ${fake.token}`,
      body: text ? JSON.parse(text) : undefined,
    });
    return HttpResponse.json(body as any, { status });
  });
}

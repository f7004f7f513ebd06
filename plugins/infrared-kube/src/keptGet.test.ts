import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type {
  RequestContext,
  SecurityAuthentication,
} from '@kubernetes/client-node';
import { KubeClient, kubeConfigFromText } from './client';
import { toKubeApiError } from './errors';
import { KeptConnection, KeptGets, KEPT_HEADERS_MS } from './keptGet';
import { LightGetStatusError, LightGetTooLargeError } from './lightGet';
import { KubeClusterProber } from './clusterProber';

describe('KeptConnection', () => {
  let server: http.Server;
  let origin: URL;
  let answers: Array<
    (res: http.ServerResponse, req: http.IncomingMessage) => void
  >;
  const connections: Socket[] = [];
  const seen: http.IncomingHttpHeaders[] = [];
  const paths: string[] = [];

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      seen.push(req.headers);
      paths.push(req.url ?? '');
      const answer = answers.shift();
      if (answer) answer(res, req);
      // no answer queued: the request hangs (a server that stopped answering)
    });
    server.on('connection', socket => connections.push(socket));
    await new Promise<void>(r => server.listen(0, '127.0.0.1', r));
    origin = new URL(
      `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    );
  });
  afterAll(() => {
    server.closeAllConnections();
    return new Promise(r => server.close(r));
  });
  beforeEach(() => {
    answers = [];
    connections.length = 0;
    seen.length = 0;
    paths.length = 0;
  });

  const json =
    (status: number, body: unknown, headers = {}) =>
    (res: http.ServerResponse) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(body));
    };
  const signal = () => AbortSignal.timeout(5000);
  const auth = { Authorization: 'Bearer t', Accept: 'application/json' };

  it('sends every GET over one connection, with the headers given', async () => {
    const kept = new KeptConnection({ origin });
    for (let i = 0; i < 20; i++) {
      answers.push(json(200, { gitVersion: `v1.${i}` }));
      await expect(kept.get('/version', auth, signal())).resolves.toEqual({
        gitVersion: `v1.${i}`,
      });
    }
    expect(connections).toHaveLength(1);
    expect(seen[0]).toMatchObject({
      authorization: 'Bearer t',
      host: origin.host,
    });
    kept.close();
  });

  it('reads a chunked answer and an answer that ends with the connection', async () => {
    const kept = new KeptConnection({ origin });
    answers.push(res => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"items":[');
      res.write('1,2,');
      res.end('3]}');
    });
    await expect(kept.get('/api/v1/nodes', auth, signal())).resolves.toEqual({
      items: [1, 2, 3],
    });
    answers.push((_res, req) => {
      req.socket.end('HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n{"a":1}');
    });
    await expect(kept.get('/x', auth, signal())).resolves.toEqual({ a: 1 });
    // the server closed it: the next GET opens another
    answers.push(json(200, { b: 2 }));
    await expect(kept.get('/y', auth, signal())).resolves.toEqual({ b: 2 });
    expect(connections).toHaveLength(2);
    kept.close();
  });

  it('rejects another status as lightGet does, with its body and headers, and keeps the connection', async () => {
    const kept = new KeptConnection({ origin });
    answers.push(
      json(
        403,
        { kind: 'Status', reason: 'Forbidden', message: 'nodes is forbidden' },
        { 'Retry-After': '2' },
      ),
    );
    const error = await kept.get('/api/v1/nodes', auth, signal()).catch(e => e);
    expect(error).toBeInstanceOf(LightGetStatusError);
    expect(error).toMatchObject({
      code: 403,
      body: { message: 'nodes is forbidden' },
      headers: { 'retry-after': '2' },
    });
    answers.push(json(200, {}));
    await kept.get('/version', auth, signal());
    expect(connections).toHaveLength(1);
    kept.close();
  });

  it('gives up on an answer over its bound, and the next GET is answered', async () => {
    const kept = new KeptConnection({ origin });
    answers.push(json(200, { data: 'x'.repeat(4096) }));
    await expect(kept.get('/big', auth, signal(), 1024)).rejects.toBeInstanceOf(
      LightGetTooLargeError,
    );
    answers.push(json(200, { ok: true }));
    await expect(kept.get('/small', auth, signal(), 1024)).resolves.toEqual({
      ok: true,
    });
    // undici reads off the rest of a small answer and keeps the connection (a larger one is cut)
    expect(connections).toHaveLength(1);
    kept.close();
  });

  it('sends again on a new connection when the server closed the kept one', async () => {
    const kept = new KeptConnection({ origin });
    answers.push(json(200, { n: 1 }));
    await kept.get('/version', auth, signal());
    // the server drops its idle connection (as kube-apiserver does after 90 s)
    connections[0].destroy();
    await new Promise(r => setTimeout(r, 50));
    answers.push(json(200, { n: 2 }));
    await expect(kept.get('/version', auth, signal())).resolves.toEqual({
      n: 2,
    });
    expect(connections).toHaveLength(2);
    // the server closes it as the request arrives, before any answer: sent once more
    answers.push((_res, req) => req.socket.destroy());
    answers.push(json(200, { n: 3 }));
    await expect(kept.get('/version', auth, signal())).resolves.toEqual({
      n: 3,
    });
    expect(connections).toHaveLength(3);
    kept.close();
  });

  it('fails on its signal as http.request does: a Timeout, and a new connection after it', async () => {
    const kept = new KeptConnection({ origin });
    const error = await kept
      .get('/hangs', auth, AbortSignal.timeout(200))
      .catch(e => e);
    expect(toKubeApiError(error, 'probe')).toMatchObject({
      code: 0,
      reason: 'Timeout',
    });
    answers.push(json(200, { ok: 1 }));
    await expect(kept.get('/version', auth, signal())).resolves.toEqual({
      ok: 1,
    });
    expect(connections).toHaveLength(2);
    kept.close();
  });

  it('fails on a refused connection with its code, as the probe classifies it', async () => {
    const closed = http.createServer();
    await new Promise<void>(r => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise(r => closed.close(r));
    const kept = new KeptConnection({
      origin: new URL(`http://127.0.0.1:${port}`),
    });
    const error = await kept.get('/version', auth, signal()).catch(e => e);
    expect(toKubeApiError(error, 'probe')).toMatchObject({
      reason: 'ECONNREFUSED',
    });
  });

  describe('a client', () => {
    let calls = 0;
    let token = 'one';
    const authentication: SecurityAuthentication = {
      getName: () => 'counting',
      async applySecurityAuthentication(context: RequestContext) {
        calls++;
        context.setHeaderParam('Authorization', `Bearer ${token}`);
      },
    };
    const client = () =>
      new KubeClient(
        kubeConfigFromText(`apiVersion: v1
kind: Config
clusters: [{name: c, cluster: {server: '${origin.origin}'}}]
users: [{name: u, user: {token: unused}}]
contexts: [{name: c, context: {cluster: c, user: u}}]
current-context: c
`),
        { authentication },
      );
    beforeEach(() => {
      calls = 0;
      token = 'one';
    });

    it('probes 20 times over one connection and asks its authentication once', async () => {
      // before the kept connection: 21 asks (client-node makes an agent on each)
      const prober = new KubeClusterProber(client());
      for (let i = 0; i < 20; i++) {
        answers.push(json(200, { gitVersion: 'v1.37.2' }));
        // the nodes are counted on the first probe only (then every 5 minutes)
        if (i === 0) answers.push(json(200, { items: [{}, {}] }));
        await expect(prober.probe({ kind: 'inCluster' })).resolves.toEqual({
          ok: true,
          kubernetesVersion: 'v1.37.2',
          nodes: 2,
        });
      }
      expect(calls).toBe(1);
      expect(connections).toHaveLength(1);
    });

    it('asks its authentication again after a 401, and sends once more with what it gives', async () => {
      const c = client();
      answers.push(json(200, { gitVersion: 'v1' }));
      await c.getKept('/version');
      token = 'two';
      answers.push(json(401, { kind: 'Status', reason: 'Unauthorized' }));
      answers.push(json(200, { gitVersion: 'v2' }));
      await expect(c.getKept('/version')).resolves.toEqual({
        gitVersion: 'v2',
      });
      expect(seen.map(h => h.authorization)).toEqual([
        'Bearer one',
        'Bearer one',
        'Bearer two',
      ]);
      expect(calls).toBe(2);
    });

    it('sends under the path of a server URL that has one', async () => {
      // before: the kept GET went to /version, past a proxied cluster's path
      const c = new KubeClient(
        kubeConfigFromText(`apiVersion: v1
kind: Config
clusters: [{name: c, cluster: {server: '${origin.origin}/k8s/clusters/c1'}}]
users: [{name: u, user: {token: t}}]
contexts: [{name: c, context: {cluster: c, user: u}}]
current-context: c
`),
        { authentication },
      );
      answers.push(json(200, {}), json(200, { items: [] }));
      await c.getKept('/version');
      await c.getKept('/api/v1/nodes?limit=1');
      expect(paths).toEqual([
        '/k8s/clusters/c1/version',
        '/k8s/clusters/c1/api/v1/nodes?limit=1',
      ]);
    });

    it('asks its authentication again after KEPT_HEADERS_MS', async () => {
      let now = 0;
      const gets = new KeptGets(
        async path => {
          const context = await (client() as any).authorizedContext(
            'GET',
            path,
          );
          return context;
        },
        () => now,
      );
      answers.push(json(200, {}), json(200, {}), json(200, {}));
      await gets.get('/version', signal());
      now = KEPT_HEADERS_MS - 1;
      await gets.get('/version', signal());
      expect(calls).toBe(1);
      now = KEPT_HEADERS_MS;
      await gets.get('/version', signal());
      expect(calls).toBe(2);
    });
  });
});

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { KubeClient } from './client';
import { listAllPages } from './pagedList';

/** A LIST endpoint on loopback that pages `names` and can expire a continue token once. */
describe('listAllPages', () => {
  let server: http.Server;
  let client: KubeClient;
  const names = Array.from({ length: 7 }, (_, i) => `s${i}`);
  let expireOnce = false;
  const seen: string[] = [];

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const url = new URL(req.url!, 'http://x');
      seen.push(url.search);
      const limit = Number(url.searchParams.get('limit'));
      const from = Number(url.searchParams.get('continue') ?? 0);
      if (from > 0 && expireOnce) {
        expireOnce = false;
        res.writeHead(410, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ kind: 'Status', reason: 'Expired' }));
        return;
      }
      const items = names.slice(from, from + limit).map(name => ({
        metadata: { name },
      }));
      const next = from + limit < names.length ? String(from + limit) : '';
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          metadata: { resourceVersion: '42', continue: next },
          items,
        }),
      );
    });
    await new Promise<void>(r => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    // plain http on loopback: client-node allows it only with skip-TLS-verify
    client = KubeClient.fromKubeconfig(
      [
        'apiVersion: v1',
        `clusters: [{name: c, cluster: {server: "http://127.0.0.1:${port}", insecure-skip-tls-verify: true}}]`,
        'users: [{name: u, user: {token: t}}]',
        'contexts: [{name: x, context: {cluster: c, user: u}}]',
        'current-context: x',
      ].join('\n'),
    );
  });
  afterAll(() => new Promise(r => server.close(r)));
  beforeEach(() => {
    seen.length = 0;
  });

  it('follows continue tokens with the limit and selector on every page', async () => {
    const list = await listAllPages<{ metadata: { name: string } }>(
      client,
      '/api/v1/namespaces/n/secrets',
      { pageSize: 3, labelSelector: 'a=b' },
    );
    expect(list.items.map(i => i.metadata.name)).toEqual(names);
    expect(list.resourceVersion).toBe('42');
    expect(seen).toHaveLength(3);
    for (const query of seen) {
      expect(query).toContain('limit=3');
      expect(query).toContain('labelSelector=a%3Db');
    }
  });

  it('starts again when a continue token has expired (410), without repeating objects', async () => {
    expireOnce = true;
    const list = await listAllPages<{ metadata: { name: string } }>(
      client,
      '/x',
      { pageSize: 4 },
    );
    expect(list.items.map(i => i.metadata.name)).toEqual(names);
    expect(seen).toHaveLength(4); // page 1, expired page 2, then pages 1 and 2 again
  });
});

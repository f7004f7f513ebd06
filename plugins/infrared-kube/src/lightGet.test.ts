import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpMethod, RequestContext } from '@kubernetes/client-node';
import { kubeCall } from './errors';
import { lightGet, LightGetStatusError } from './lightGet';

describe('lightGet', () => {
  let server: http.Server;
  let base: string;
  let answers: Array<(res: http.ServerResponse) => void>;
  const seen: http.IncomingHttpHeaders[] = [];

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      seen.push(req.headers);
      answers.shift()!(res);
    });
    await new Promise<void>(r => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise(r => server.close(r)));
  beforeEach(() => {
    answers = [];
  });

  const context = (path: string) => {
    const c = new RequestContext(`${base}${path}`, HttpMethod.GET);
    c.setHeaderParam('Authorization', 'Bearer t');
    return c;
  };
  const json =
    (status: number, body: unknown, headers = {}) =>
    (res: http.ServerResponse) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(body));
    };

  it('sends the context headers and parses the JSON answer', async () => {
    answers.push(json(200, { gitVersion: 'v1.37.2' }));
    await expect(
      lightGet(context('/version'), AbortSignal.timeout(5000)),
    ).resolves.toEqual({ gitVersion: 'v1.37.2' });
    expect(seen.at(-1)?.authorization).toBe('Bearer t');
  });

  it('rejects another status with its code, Status body and headers', async () => {
    answers.push(
      json(
        429,
        { kind: 'Status', reason: 'TooManyRequests' },
        { 'Retry-After': '2' },
      ),
    );
    const error = await lightGet(
      context('/x'),
      AbortSignal.timeout(5000),
    ).catch(e => e);
    expect(error).toBeInstanceOf(LightGetStatusError);
    expect(error).toMatchObject({
      code: 429,
      body: { reason: 'TooManyRequests' },
      headers: { 'retry-after': '2' },
    });
  });

  it('is sent again by kubeCall after a 429, as the other calls are', async () => {
    answers.push(
      json(429, { reason: 'TooManyRequests' }, { 'Retry-After': '0' }),
    );
    answers.push(json(200, { items: [] }));
    await expect(
      kubeCall('LIST things', () =>
        lightGet(context('/things'), AbortSignal.timeout(10_000)),
      ),
    ).resolves.toEqual({ items: [] });
  });

  it('gives up on an answer over 4 MiB', async () => {
    answers.push(res => {
      res.writeHead(200);
      res.end(Buffer.alloc(5 * 2 ** 20, 32));
    });
    await expect(
      lightGet(context('/big'), AbortSignal.timeout(10_000)),
    ).rejects.toThrow(/too large/);
  });
});

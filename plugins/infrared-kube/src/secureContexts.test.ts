import fs from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import { ensureClusterPki } from '@internal/devenv/src/certs';
import { toKubeApiError } from './errors';
import { KeptConnection } from './keptGet';

/** A cluster's CA and admin credential, as the TLS options of an https.Agent. */
function credential(dir: string, name: string) {
  const pki = ensureClusterPki(path.join(dir, name), name);
  const read = (file: string) => fs.readFileSync(file);
  return {
    pki,
    tls: {
      ca: read(pki.caCert),
      cert: read(pki.adminCert),
      key: read(pki.adminKey),
      rejectUnauthorized: true,
    },
  };
}

describe('KeptConnection: TLS contexts shared per CA and credential', () => {
  let dir: string;
  let a: ReturnType<typeof credential>;
  let b: ReturnType<typeof credential>;
  const servers: https.Server[] = [];

  /** An API server of cluster `of` that requires a client certificate its CA issued. */
  async function server(of: ReturnType<typeof credential>) {
    const s = https.createServer(
      {
        ca: fs.readFileSync(of.pki.caCert),
        cert: fs.readFileSync(of.pki.servingCert),
        key: fs.readFileSync(of.pki.servingKey),
        requestCert: true,
        rejectUnauthorized: true,
      },
      (req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({ port: (req.socket.address() as AddressInfo).port }),
        );
      },
    );
    servers.push(s);
    await new Promise<void>(r => s.listen(0, '127.0.0.1', r));
    return new URL(`https://127.0.0.1:${(s.address() as AddressInfo).port}`);
  }

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kept-tls-'));
    a = credential(dir, 'a');
    b = credential(dir, 'b');
  });
  afterAll(async () => {
    for (const s of servers) {
      s.closeAllConnections();
      await new Promise(r => s.close(r));
    }
    fs.rmSync(dir, { recursive: true, force: true });
  });
  afterEach(() => jest.restoreAllMocks());

  const signal = () => AbortSignal.timeout(5000);
  const get = (kept: KeptConnection) =>
    kept.get<{ port: number }>('/version', {}, signal());

  it('makes one context for two servers with the same CA and credential, another for another credential', async () => {
    const [one, two, three] = [
      await server(a),
      await server(a),
      await server(b),
    ];
    const made = jest.spyOn(tls, 'createSecureContext');
    // each cluster's options read on their own, as each cluster's kubeconfig Secret gives them
    const kept = [
      new KeptConnection({ origin: one, tls: { ...credential(dir, 'a').tls } }),
      new KeptConnection({ origin: two, tls: { ...credential(dir, 'a').tls } }),
      new KeptConnection({ origin: three, tls: b.tls }),
    ];
    for (const [i, origin] of [one, two, three].entries()) {
      await expect(get(kept[i])).resolves.toEqual({
        port: Number(origin.port),
      });
      await expect(get(kept[i])).resolves.toEqual({
        port: Number(origin.port),
      });
    }
    // before this sharing: one per connection (3)
    expect(made).toHaveBeenCalledTimes(2);
    for (const k of kept) k.close();
  });

  it('still checks each server against its own trust: a shared context does not trust another CA', async () => {
    const other = await server(b);
    await get(new KeptConnection({ origin: await server(a), tls: a.tls }));
    const kept = new KeptConnection({ origin: other, tls: a.tls });
    const error = await get(kept).catch(e => e);
    expect(toKubeApiError(error, 'probe').reason).toMatch(
      /SELF_SIGNED|UNABLE_TO_VERIFY|CERT/,
    );
    kept.close();
  });

  it('keeps the server name check of each connection', async () => {
    const kept = new KeptConnection({
      origin: await server(a),
      tls: { ...a.tls, servername: 'elsewhere.example' },
    });
    const error = await get(kept).catch(e => e);
    expect(toKubeApiError(error, 'probe').reason).toBe(
      'ERR_TLS_CERT_ALTNAME_INVALID',
    );
    kept.close();
  });
});

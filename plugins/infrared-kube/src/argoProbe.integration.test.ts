import http from 'node:http';
import net from 'node:net';
import {
  getTestControlPlane,
  serverAlias,
  type ServerAlias,
} from '@internal/devenv';
import {
  argoConnectionFor,
  inspectKubeconfig,
} from '@infrared-clusters/plugin-infrared-common';
import { parse, stringify } from 'yaml';
import { KubeClient, kubeConfigFromText } from './client';
import { RequestCounter } from './counter';
import { KubeClusterProber } from './clusterProber';
import type { ProbeTarget } from './probe';
import type { ProbeResult } from './probeErrors';

jest.setTimeout(120_000);

/** The kubeconfig with its cluster entry's fields replaced (undefined removes one). */
function withCluster(
  kubeconfig: string,
  fields: Record<string, unknown>,
): string {
  const doc = parse(kubeconfig);
  const cluster = doc.clusters[0].cluster;
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined) delete cluster[key];
    else cluster[key] = value;
  }
  return stringify(doc);
}

/** What the reconciler probes: the Argo CD connection of a kubeconfig and a spec.server. */
function argoTarget(kubeconfig: string, specServer?: string): ProbeTarget {
  const inspection = inspectKubeconfig(kubeconfig, {
    refuseInClusterServer: true,
  });
  if (!inspection.ok) throw new Error(JSON.stringify(inspection.errors));
  const argo = argoConnectionFor(inspection, specServer);
  if (!argo.ok) throw new Error(JSON.stringify(argo.errors));
  return { kind: 'argo', server: argo.server, config: argo.config };
}

const portOf = (server: { address(): unknown }) =>
  (server.address() as net.AddressInfo).port;

async function listen<T extends net.Server>(server: T, host = '127.0.0.1') {
  await new Promise<void>(resolve => server.listen(0, host, resolve));
  return server;
}

/** Relays a client socket to the real API server on loopback. */
function relay(client: net.Socket, apiPort: number, onOpen: () => void) {
  const upstream = net.connect(apiPort, '127.0.0.1', () => {
    onOpen();
    upstream.pipe(client);
    client.pipe(upstream);
  });
  upstream.on('error', () => client.destroy());
  client.on('error', () => upstream.destroy());
  return upstream;
}

/**
 * A tiny HTTP CONNECT proxy on loopback: records each CONNECT target and tunnels it to the real
 * API server whatever host it names, or answers 403 to all when `refuse` is set.
 */
function connectProxy(apiPort: number, refuse = false) {
  const targets: string[] = [];
  const sockets = new Set<net.Socket>();
  const server = http.createServer((_req, res) => res.writeHead(405).end());
  server.on('connect', (req, socket: net.Socket, head: Buffer) => {
    targets.push(req.url ?? '');
    sockets.add(socket);
    if (refuse) {
      socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
      return;
    }
    const upstream = relay(socket, apiPort, () => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) upstream.write(head);
    });
    sockets.add(upstream);
  });
  return {
    targets,
    server,
    close: () => {
      sockets.forEach(s => s.destroy());
      return new Promise(r => server.close(r));
    },
  };
}

/**
 * A tiny SOCKS5 proxy (no authentication, CONNECT only) on loopback: records the address each
 * client asks for, as the client sent it (a domain name or an IP), and relays to the API server.
 */
function socks5Proxy(apiPort: number) {
  const targets: string[] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer(client => {
    sockets.add(client);
    let buffer = Buffer.alloc(0);
    let greeted = false;
    const onData = (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      if (!greeted) {
        if (buffer.length < 2 || buffer.length < 2 + buffer[1]) return;
        buffer = buffer.subarray(2 + buffer[1]);
        greeted = true;
        client.write(Buffer.from([5, 0]));
      }
      if (buffer.length < 5) return;
      const atyp = buffer[3];
      let host: string;
      let end: number;
      if (atyp === 1) {
        end = 8;
        host = [...buffer.subarray(4, 8)].join('.');
      } else if (atyp === 3) {
        end = 5 + buffer[4];
        host = `domain:${buffer.subarray(5, end).toString()}`;
      } else {
        client.destroy();
        return;
      }
      if (buffer.length < end + 2) return;
      const port = buffer.readUInt16BE(end);
      targets.push(`${host}:${port}`);
      client.off('data', onData);
      const rest = buffer.subarray(end + 2);
      const upstream = relay(client, apiPort, () => {
        client.write(Buffer.from([5, 0, 0, 1, 0, 0, 0, 0, 0, 0]));
        if (rest.length) upstream.write(rest);
      });
      sockets.add(upstream);
    };
    client.on('data', onData);
    client.on('error', () => undefined);
  });
  return {
    targets,
    server,
    close: () => {
      sockets.forEach(s => s.destroy());
      return new Promise(r => server.close(r));
    },
  };
}

/** The Connected check against the real control plane, connecting as Argo CD will. */
describe('KubeClusterProber: the connection of the Argo CD Secret', () => {
  const cp = getTestControlPlane();
  const workload = cp.cluster('workload-a');
  const management = cp.cluster('management');
  const apiPort = Number(new URL(workload.server).port);
  const counter = new RequestCounter();
  const prober = new KubeClusterProber(
    new KubeClient(kubeConfigFromText(management.kubeconfig)),
    { timeoutMs: 10_000, counter },
  );
  const probe = (target: ProbeTarget) => prober.probe(target);
  const message = (r: ProbeResult) => (r.ok ? '' : r.message);

  it("reaches the cluster with the kubeconfig's own server when there is no spec.server", async () => {
    expect(await probe(argoTarget(workload.kubeconfig))).toMatchObject({
      ok: true,
      kubernetesVersion: expect.stringMatching(/^v1\./),
    });
  });

  it("is Unreachable when spec.server points at a closed port, though the kubeconfig's own server answers", async () => {
    const closed = await listen(net.createServer());
    const port = portOf(closed);
    await new Promise(r => closed.close(r));
    const result = await probe(
      argoTarget(workload.kubeconfig, `https://127.0.0.1:${port}/`),
    );
    expect(result).toMatchObject({ ok: false, reason: 'Unreachable' });
    expect(message(result)).toContain(`https://127.0.0.1:${port} `);
    expect(message(result)).toContain('ECONNREFUSED');
  });

  describe('spec.server at an address the certificate does not name', () => {
    // A TCP relay on 127.0.0.2: the serving certificate names 127.0.0.1 and localhost only.
    let alias: ServerAlias;
    let specServer: string;
    beforeAll(async () => {
      alias = await serverAlias(cp, 'workload-a', { host: '127.0.0.2' });
      specServer = alias.server;
    });
    afterAll(() => alias?.close());

    it('is CertificateNotTrusted: the certificate is checked against spec.server', async () => {
      const result = await probe(argoTarget(workload.kubeconfig, specServer));
      expect(result).toMatchObject({
        ok: false,
        reason: 'CertificateNotTrusted',
      });
      expect(message(result)).toContain('ERR_TLS_CERT_ALTNAME_INVALID');
    });

    it('connects with a tls-server-name the certificate names, as Argo CD would', async () => {
      const kc = withCluster(workload.kubeconfig, {
        'tls-server-name': 'localhost',
      });
      expect(await probe(argoTarget(kc, specServer))).toMatchObject({
        ok: true,
      });
    });
  });

  it('is CertificateNotTrusted with a tls-server-name the certificate does not name', async () => {
    const kc = withCluster(workload.kubeconfig, {
      'tls-server-name': 'not-in-the-certificate.example',
    });
    const result = await probe(argoTarget(kc));
    expect(result).toMatchObject({
      ok: false,
      reason: 'CertificateNotTrusted',
    });
    expect(message(result)).toContain('ERR_TLS_CERT_ALTNAME_INVALID');
  });

  describe('through an HTTP CONNECT proxy on loopback', () => {
    it('goes through the proxy to spec.server: only the proxy can reach it', async () => {
      const proxy = connectProxy(apiPort);
      await listen(proxy.server);
      try {
        const kc = withCluster(workload.kubeconfig, {
          'proxy-url': `http://127.0.0.1:${portOf(proxy.server)}`,
        });
        // Nothing listens on localhost:1; the proxy relays every tunnel to the API server.
        const result = await probe(argoTarget(kc, 'https://localhost:1'));
        expect(result).toMatchObject({ ok: true });
        expect(proxy.targets.length).toBeGreaterThan(0);
        expect(new Set(proxy.targets)).toEqual(new Set(['localhost:1']));
      } finally {
        await proxy.close();
      }
    });

    it('fails when the proxy refuses, rather than connecting around it', async () => {
      const proxy = connectProxy(apiPort, true);
      await listen(proxy.server);
      try {
        const kc = withCluster(workload.kubeconfig, {
          'proxy-url': `http://127.0.0.1:${portOf(proxy.server)}`,
        });
        const result = await probe(argoTarget(kc));
        expect(result.ok).toBe(false);
        expect(message(result)).toContain(
          `through proxy http://127.0.0.1:${portOf(proxy.server)}`,
        );
        expect(proxy.targets).toEqual([`127.0.0.1:${apiPort}`]);
      } finally {
        await proxy.close();
      }
    });
  });

  it('lets a socks5 proxy resolve the server name, as Go does', async () => {
    const proxy = socks5Proxy(apiPort);
    await listen(proxy.server);
    try {
      const kc = withCluster(workload.kubeconfig, {
        'proxy-url': `socks5://127.0.0.1:${portOf(proxy.server)}`,
      });
      // "kubernetes" resolves nowhere here; the certificate names it; only the proxy reaches it.
      const result = await probe(argoTarget(kc, 'https://kubernetes:1'));
      expect(result).toMatchObject({ ok: true });
      expect(new Set(proxy.targets)).toEqual(new Set(['domain:kubernetes:1']));
    } finally {
      await proxy.close();
    }
  });

  it('reports what client-go refuses in the Secret without sending anything', async () => {
    const inspection = inspectKubeconfig(workload.kubeconfig);
    if (!inspection.ok) throw new Error('the admin kubeconfig is refused');
    counter.reset();
    const result = await probe({
      kind: 'argo',
      server: inspection.server,
      config: {
        ...inspection.argoConfig,
        tlsClientConfig: {
          ...inspection.argoConfig.tlsClientConfig,
          caData: Buffer.from('not a certificate').toString('base64'),
        },
      },
    });
    expect(result).toMatchObject({
      ok: false,
      reason: 'ArgoConnectionRefused',
      message: expect.stringMatching(
        /Argo CD would refuse this connection: config.tlsClientConfig.caData: .*unable to load root certificates/,
      ),
    });
    expect(counter.total).toBe(0);
  });
});

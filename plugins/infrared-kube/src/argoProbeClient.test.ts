import fs from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { TLSSocket } from 'node:tls';
import { ensureClusterPki, type ClusterPki } from '@internal/devenv/src/certs';
import { ArgoProbeClient } from './argoProbeClient';
import { RequestCounter } from './counter';
import { KubeClusterProber } from './clusterProber';
import type { ProbeTarget } from './probe';
import { KubeClient, kubeConfigFromText } from './client';

const b64 = (file: string) => fs.readFileSync(file).toString('base64');

describe('KubeClusterProber over its light client of an Argo CD connection', () => {
  let dir: string;
  let a: ClusterPki;
  let b: ClusterPki;
  let server: https.Server;
  let origin: string;
  const seen: Array<{ path: string; auth?: string; user?: string }> = [];

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'argo-probe-'));
    a = ensureClusterPki(path.join(dir, 'a'), 'a');
    b = ensureClusterPki(path.join(dir, 'b'), 'b');
    server = https.createServer(
      {
        ca: fs.readFileSync(a.caCert),
        cert: fs.readFileSync(a.servingCert),
        key: fs.readFileSync(a.servingKey),
        requestCert: true,
        rejectUnauthorized: false,
      },
      (req, res) => {
        const peer = (req.socket as TLSSocket).getPeerCertificate();
        seen.push({
          path: req.url ?? '',
          auth: req.headers.authorization,
          user: (req.socket as TLSSocket).authorized
            ? String(peer.subject?.CN)
            : undefined,
        });
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify(
            req.url?.includes('/api/v1/nodes')
              ? { items: [{}, {}, {}], metadata: {} }
              : { gitVersion: 'v1.37.2' },
          ),
        );
      },
    );
    await new Promise<void>(r => server.listen(0, '127.0.0.1', r));
    origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise(r => server.close(r));
    fs.rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(() => {
    seen.length = 0;
  });

  const management = new KubeClient(
    kubeConfigFromText(`apiVersion: v1
kind: Config
clusters: [{name: m, cluster: {server: 'https://127.0.0.1:1'}}]
users: [{name: m, user: {token: unused}}]
contexts: [{name: m, context: {cluster: m, user: m}}]
current-context: m
`),
  );
  const argo = (
    address: string,
    tls: { insecure?: boolean; ca?: ClusterPki; credential?: ClusterPki },
    bearerToken?: string,
  ): ProbeTarget => ({
    kind: 'argo',
    server: address,
    config: {
      ...(bearerToken ? { bearerToken } : {}),
      tlsClientConfig: {
        insecure: tls.insecure ?? false,
        ...(tls.ca ? { caData: b64(tls.ca.caCert) } : {}),
        ...(tls.credential
          ? {
              certData: b64(tls.credential.adminCert),
              keyData: b64(tls.credential.adminKey),
            }
          : {}),
      },
    },
  });

  it('sends the client certificate and the token, under the server URL path, and counts each GET', async () => {
    const counter = new RequestCounter();
    const prober = new KubeClusterProber(management, {
      counter,
      fullProbeMs: 60_000,
    });
    const target = argo(
      `${origin}/k8s/clusters/c1`,
      { ca: a, credential: a },
      'tok',
    );
    await expect(prober.probe(target)).resolves.toEqual({
      ok: true,
      kubernetesVersion: 'v1.37.2',
      nodes: 3,
    });
    // within the full probe's 10 minutes: a TCP check of the address, no request
    await expect(prober.probe(target)).resolves.toMatchObject({ ok: true });
    expect(seen).toEqual([
      {
        path: '/k8s/clusters/c1/version',
        auth: 'Bearer tok',
        user: 'devenv-admin',
      },
      {
        path: '/k8s/clusters/c1/api/v1/nodes?limit=500',
        auth: 'Bearer tok',
        user: 'devenv-admin',
      },
    ]);
    expect(counter.total).toBe(2);
  });

  it('refuses a server its CA did not issue, and reaches it with insecure as Argo CD would', async () => {
    const prober = new KubeClusterProber(management);
    await expect(
      prober.probe(argo(origin, { ca: b, credential: b })),
    ).resolves.toMatchObject({ ok: false, reason: 'CertificateNotTrusted' });
    expect(seen).toEqual([]);
    await expect(
      prober.probe(argo(origin, { insecure: true }, 'tok')),
    ).resolves.toMatchObject({ ok: true, nodes: 3 });
  });

  it('between full probes, a server whose address stops accepting connections is Unreachable at once, and ok again when back', async () => {
    const lone = https.createServer(
      {
        cert: fs.readFileSync(a.servingCert),
        key: fs.readFileSync(a.servingKey),
      },
      (req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify(
            req.url?.includes('/api/v1/nodes')
              ? { items: [{}], metadata: {} }
              : { gitVersion: 'v1.37.2' },
          ),
        );
      },
    );
    await new Promise<void>(r => lone.listen(0, '127.0.0.1', r));
    const port = (lone.address() as AddressInfo).port;
    const target = argo(`https://127.0.0.1:${port}`, { ca: a }, 'tok');
    const prober = new KubeClusterProber(management, { fullProbeMs: 60_000 });
    await expect(prober.probe(target)).resolves.toMatchObject({ ok: true });

    lone.closeAllConnections();
    await new Promise(r => lone.close(r));
    await expect(prober.probe(target)).resolves.toMatchObject({
      ok: false,
      reason: 'Unreachable',
    });

    await new Promise<void>(r => lone.listen(port, '127.0.0.1', r));
    try {
      await expect(prober.probe(target)).resolves.toEqual({
        ok: true,
        kubernetesVersion: 'v1.37.2',
        nodes: 1,
      });
    } finally {
      lone.closeAllConnections();
      await new Promise(r => lone.close(r));
    }
  });

  it('spreads full probes over the fleet: 2 a second, so 4 clusters are probed in full every 2 s', async () => {
    let now = 0;
    const counter = new RequestCounter();
    const prober = new KubeClusterProber(management, {
      counter,
      now: () => now,
    });
    const targets = [1, 2, 3, 4].map(n =>
      argo(`${origin}/k8s/clusters/spread-${n}`, { ca: a }, 'tok'),
    );
    const probeAll = () => Promise.all(targets.map(t => prober.probe(t)));
    await probeAll();
    expect(counter.total).toBe(8); // /version and the nodes, each
    now = 1_999;
    await probeAll();
    expect(counter.total).toBe(8); // TCP checks only
    now = 2_000;
    await probeAll();
    expect(counter.total).toBe(16);
  });

  it('probes clusters that share one connection at once with one full probe, all answered', async () => {
    const counter = new RequestCounter();
    const prober = new KubeClusterProber(management, { counter });
    const target = () =>
      argo(`${origin}/k8s/clusters/shared`, { ca: a }, 'tok');
    const results = await Promise.all(
      Array.from({ length: 10 }, () => prober.probe(target())),
    );
    expect(results).toEqual(
      Array(10).fill({ ok: true, kubernetesVersion: 'v1.37.2', nodes: 3 }),
    );
    expect(counter.total).toBe(2);
  });

  it('is refused at once for what client-go refuses, as kubeClientForArgo is', () => {
    expect(
      () =>
        new ArgoProbeClient({
          server: origin,
          config: {
            tlsClientConfig: { insecure: true, caData: b64(a.caCert) },
          },
        }),
    ).toThrow(/Argo CD would refuse/);
  });
});

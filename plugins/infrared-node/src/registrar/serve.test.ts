import { RegistrarMetrics } from './metrics';
import {
  healthHandler,
  metricsHandler,
  parseBindAddress,
  PrometheusMeter,
  serveHttp,
} from './serve';

describe('parseBindAddress', () => {
  it('reads Go listen addresses', () => {
    expect(parseBindAddress(':8081')).toEqual({ port: 8081 });
    expect(parseBindAddress('127.0.0.1:0')).toEqual({
      host: '127.0.0.1',
      port: 0,
    });
    expect(parseBindAddress('[::1]:9090')).toEqual({ host: '::1', port: 9090 });
    expect(() => parseBindAddress('8081')).toThrow('not a listen address');
    expect(() => parseBindAddress(':99999')).toThrow('not a listen address');
  });
});

describe('PrometheusMeter', () => {
  it("renders upstream's series in the text format, every conflict reason at 0 from the start", () => {
    const meter = new PrometheusMeter();
    const metrics = new RegistrarMetrics(meter);
    metrics.conflict('incumbent', 2);
    metrics.registrations([
      { state: 'active', credentialExpiry: 'ok', value: 3 },
    ]);
    const text = meter.render();
    expect(text).toContain(
      '# TYPE argocd_cluster_registrar_conflicts_total counter\n',
    );
    expect(text).toContain(
      'argocd_cluster_registrar_conflicts_total{reason="incumbent"} 2\n',
    );
    expect(text).toContain(
      'argocd_cluster_registrar_conflicts_total{reason="not_managed"} 0\n',
    );
    expect(text).toContain('argocd_cluster_registrar_adoptions_total 0\n');
    expect(text).toContain(
      'argocd_cluster_registrar_registrations{credential_expiry="ok",state="active"} 3\n',
    );
    expect(text).toContain(
      '# TYPE argocd_cluster_registrar_unrouted_secrets gauge\n',
    );
  });
});

describe('serveHttp', () => {
  it('serves /healthz, /readyz and /metrics on loopback, 404 elsewhere', async () => {
    const meter = new PrometheusMeter();
    new RegistrarMetrics(meter).unrouted(4);
    let ready = false;
    const health = await serveHttp(
      '127.0.0.1:0',
      healthHandler(() => ready),
    );
    const scrape = await serveHttp('127.0.0.1:0', metricsHandler(meter));
    try {
      const get = async (address: string, path: string) => {
        const res = await fetch(`http://${address}${path}`, {
          signal: AbortSignal.timeout(5_000),
        });
        return { status: res.status, body: await res.text() };
      };
      expect(health.address).toMatch(/^127\.0\.0\.1:\d+$/);
      expect(await get(health.address, '/healthz')).toEqual({
        status: 200,
        body: 'ok',
      });
      expect((await get(health.address, '/readyz')).status).toBe(500);
      ready = true;
      expect(await get(health.address, '/readyz')).toEqual({
        status: 200,
        body: 'ok',
      });
      expect((await get(health.address, '/metrics')).status).toBe(404);
      const metrics = await get(scrape.address, '/metrics');
      expect(metrics.status).toBe(200);
      expect(metrics.body).toContain(
        'argocd_cluster_registrar_unrouted_secrets 4\n',
      );
    } finally {
      await health.close();
      await scrape.close();
    }
  });

  it('refuses an address in use', async () => {
    const first = await serveHttp(
      '127.0.0.1:0',
      healthHandler(() => true),
    );
    try {
      await expect(
        serveHttp(
          first.address,
          healthHandler(() => true),
        ),
      ).rejects.toThrow('EADDRINUSE');
    } finally {
      await first.close();
    }
  });
});

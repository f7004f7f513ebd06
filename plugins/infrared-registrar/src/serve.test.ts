import { RegistrarMetrics, REGISTRAR_METRIC_NAMES } from './metrics';
import {
  CONFLICT_REASONS,
  CREDENTIAL_EXPIRY_BUCKETS,
  REGISTRATION_STATES,
} from './types';
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
  it("renders upstream's series in the text format, every conflict reason at 0 from the start", async () => {
    const meter = new PrometheusMeter();
    const metrics = new RegistrarMetrics(meter);
    metrics.conflict('incumbent', 2);
    metrics.registrations([
      { state: 'active', credentialExpiry: 'ok', value: 3 },
    ]);
    const text = await meter.render();
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

/**
 * Reads Prometheus text exposition (format 0.0.4) strictly: every line a HELP, a TYPE or a sample of a family
 * declared before it, names and label names from the format's alphabet, label values quoted and escaped,
 * values numbers, no family or series twice. Returns each series' value by its line's name and labels.
 */
function parseExposition(text: string): Map<string, number> {
  const NAME = '[a-zA-Z_:][a-zA-Z0-9_:]*';
  const LABEL = '[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\\\\n]|\\\\[\\\\"n])*"';
  const sample = new RegExp(
    `^(${NAME})(\\{(?:${LABEL}(?:,${LABEL})*)?\\})? ([-+]?(?:\\d+(?:\\.\\d*)?(?:e[-+]?\\d+)?|NaN|Inf))$`,
  );
  const typed = new Map<string, string>();
  const series = new Map<string, number>();
  expect(text.endsWith('\n')).toBe(true);
  for (const line of text.slice(0, -1).split('\n')) {
    if (line === '') continue;
    const comment = /^# (HELP|TYPE) (\S+) (.*)$/.exec(line);
    if (comment) {
      expect(comment[2]).toMatch(new RegExp(`^${NAME}$`));
      if (comment[1] === 'TYPE') {
        expect([
          'counter',
          'gauge',
          'histogram',
          'summary',
          'untyped',
        ]).toContain(comment[3]);
        expect(typed.has(comment[2])).toBe(false);
        typed.set(comment[2], comment[3]);
      }
      continue;
    }
    const m = sample.exec(line);
    if (!m) throw new Error(`not a sample line: ${JSON.stringify(line)}`);
    expect(typed.has(m[1])).toBe(true);
    const key = `${m[1]}${m[2] ?? ''}`;
    expect(series.has(key)).toBe(false);
    series.set(key, Number(m[3]));
  }
  return series;
}

describe('the /metrics exposition', () => {
  it('is valid text format 0.0.4 holding every series the chart and README name, each label set in one order', async () => {
    const meter = new PrometheusMeter();
    const metrics = new RegistrarMetrics(meter);
    metrics.conflict('incumbent', 2);
    metrics.adoption();
    metrics.registrations([
      { state: 'active', credentialExpiry: 'ok', value: 3 },
    ]);
    metrics.unrouted(4);
    const scrape = await serveHttp('127.0.0.1:0', metricsHandler(meter));
    try {
      const res = await fetch(`http://${scrape.address}/metrics`, {
        signal: AbortSignal.timeout(5_000),
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe(
        'text/plain; version=0.0.4; charset=utf-8',
      );
      const series = parseExposition(await res.text());
      const expected = new Map<string, number>();
      for (const reason of CONFLICT_REASONS) {
        expected.set(
          `${REGISTRAR_METRIC_NAMES.conflicts}{reason="${reason}"}`,
          reason === 'incumbent' ? 2 : 0,
        );
      }
      expected.set(REGISTRAR_METRIC_NAMES.adoptions, 1);
      for (const state of REGISTRATION_STATES) {
        for (const expiry of CREDENTIAL_EXPIRY_BUCKETS) {
          expected.set(
            `${REGISTRAR_METRIC_NAMES.registrations}{credential_expiry="${expiry}",state="${state}"}`,
            state === 'active' && expiry === 'ok' ? 3 : 0,
          );
        }
      }
      expected.set(REGISTRAR_METRIC_NAMES.unrouted, 4);
      expect(series).toEqual(expected);
    } finally {
      await scrape.close();
    }
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

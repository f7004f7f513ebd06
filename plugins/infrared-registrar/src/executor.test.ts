import { KubeApiError } from '@infrared-clusters/infrared-kube';
import { runRegistrarPass, SOURCE_SECRET_FIELD_SELECTOR } from './executor';
import { RegistrarMetrics, REGISTRAR_METRIC_NAMES } from './metrics';
import { BULK_FETCH_THRESHOLD, SecretDataCache } from './reads';
import {
  argo,
  k3kSecret,
  kubeconfig,
  NOW,
  ns,
  options,
  ownedLabels,
  PRUNE,
  SECRET_TYPE,
  source,
} from './__testUtils__/fixtures';
import { captureLogger, recordingMeter } from './__testUtils__/recorders';
import { MemoryRegistrarApi } from './testUtils/memoryRegistrarApi';

function world(count: number) {
  const api = new MemoryRegistrarApi();
  for (let i = 0; i < count; i++) {
    const name = `child-${String(i).padStart(3, '0')}`;
    api.addNamespace(ns(name));
    api.addSecret(
      k3kSecret(
        name,
        name,
        kubeconfig({ server: `https://10.0.${i >> 8}.${i & 255}:6443` }),
      ),
    );
  }
  return api;
}

const run = (
  api: MemoryRegistrarApi,
  opts = options(),
  extra: Record<string, unknown> = {},
) => {
  const log = captureLogger();
  const meter = recordingMeter();
  const metrics = new RegistrarMetrics(meter.meter);
  return runRegistrarPass(api, opts, {
    logger: log.logger,
    metrics,
    now: () => NOW,
    ...extra,
  }).then(report => ({ report, log, meter }));
};

describe('runRegistrarPass', () => {
  it.each(['helm.sh/release.v1', 'kubernetes.io/service-account-token'])(
    'reports a cluster-<name> Secret of type %s as not_managed without a CREATE, pass after pass',
    async type => {
      const api = world(1);
      api.addSecret({
        ...argo('cluster-child-000', {
          labels: { owner: 'helm', name: 'cluster-child-000' },
        }),
        type,
      });
      for (let pass = 0; pass < 2; pass++) {
        const { report, log } = await run(api);
        // Namespaces, Secret metadata, the target namespace's names; the kubeconfig's data once.
        expect(report.requestsByVerb).toEqual({ LIST: pass ? 3 : 4 });
        expect(report.conflicts.map(c => c.reason)).toEqual(['not_managed']);
        expect(report.errors).toEqual([]);
        expect(log.messages('error')).toEqual(['refused to register cluster']);
      }
      expect(api.secret('argocd', 'cluster-child-000')?.type).toBe(type);
    },
  );

  it('registers every child with four reads (all data in one LIST; the target names because it creates), then a steady pass makes two requests and no write', async () => {
    const api = world(25);
    const first = await run(api);
    expect(first.report).toMatchObject({
      created: 25,
      writes: 25,
      errors: [],
      keys: 25,
    });
    expect(first.report.requestsByVerb).toEqual({ LIST: 4, POST: 25 });
    expect(
      first.log.messages('info').filter(m => m === 'registered cluster'),
    ).toHaveLength(25);

    const steady = await run(api);
    expect(steady.report.requests).toBe(2);
    expect(steady.report.requestsByVerb).toEqual({ LIST: 2 });
    expect(steady.report.writes).toBe(0);
    expect(
      steady.meter.value(REGISTRAR_METRIC_NAMES.registrations, {
        state: 'active',
        credential_expiry: 'ok',
      }),
    ).toBe(25);
  });

  it('lists Secrets with one cluster-wide LIST that leaves out service-account tokens and Helm releases', async () => {
    const api = world(1);
    api.addSecret({
      ...source('child-000', 'k3k-x-kubeconfig', { 'kubeconfig.yaml': 'x' }),
      type: 'helm.sh/release.v1',
    });
    const seen: string[] = [];
    const listSecrets = api.listSecretsMetadata.bind(api);
    api.listSecretsMetadata = async (selector: string) => {
      seen.push(selector);
      return listSecrets(selector);
    };
    const { report } = await run(api);
    expect(seen).toEqual([SOURCE_SECRET_FIELD_SELECTOR]);
    expect(report.created).toBe(1);
  });

  it('reads metadata only, and fetches data only for kubeconfig Secrets that match a provider and changed', async () => {
    const api = world(3);
    api.addNamespace(ns('other', { managedBy: 'someone-else' }));
    for (let i = 0; i < 50; i++) {
      api.addSecret(source('other', `unrelated-${i}`, { x: 'y' }));
    }
    // In a managed namespace but no provider's name: never fetched.
    api.addSecret(source('child-000', 'app-settings', { x: 'y' }));
    const first = await run(api);
    expect(first.report.created).toBe(3);
    expect([...api.fetched].sort()).toEqual([
      'child-000/k3k-child-000-kubeconfig',
      'child-001/k3k-child-001-kubeconfig',
      'child-002/k3k-child-002-kubeconfig',
    ]);

    api.fetched.length = 0;
    const steady = await run(api);
    expect(steady.report.requestsByVerb).toEqual({ LIST: 2 });
    expect(steady.report.fetched).toBe(0);
    expect(api.fetched).toEqual([]);

    // A rotated kubeconfig: its new resourceVersion brings its data, and only its.
    api.addSecret(
      k3kSecret(
        'child-001',
        'child-001',
        kubeconfig({ server: 'https://10.9.9.9:6443' }),
      ),
    );
    api.fetched.length = 0;
    const rotated = await run(api);
    expect(api.fetched).toEqual(['child-001/k3k-child-001-kubeconfig']);
    expect(rotated.report.requestsByVerb).toEqual({ LIST: 3, PUT: 1 });
    expect(rotated.report.updated).toBe(1);
    expect(
      (await run(api)).report.requestsByVerb, // the update's answer was kept
    ).toEqual({ LIST: 2 });
  });

  it('keeps data between passes only for the Secrets it reads, whatever else the cluster holds', async () => {
    const api = world(2);
    for (let i = 0; i < 200; i++) {
      api.addSecret(source(`other-${i % 7}`, `unrelated-${i}`, { x: 'y' }));
    }
    const cache = new SecretDataCache();
    await run(api, options(), { cache });
    await run(api, options(), { cache });
    // Two kubeconfigs and the two cluster Secrets written from them.
    expect(cache.size).toBe(4);
  });

  it('lists every Secret with its data once when more than a few changed (a cold start), not one request each', async () => {
    const api = world(BULK_FETCH_THRESHOLD + 1);
    const { report } = await run(api);
    expect(api.fetched).toEqual([]);
    expect(report.fetched).toBe(BULK_FETCH_THRESHOLD + 1);
    expect(report.requestsByVerb.LIST).toBe(4);
  });

  it('writes nothing in dry-run and logs what it would do', async () => {
    const api = world(3);
    const { report, log } = await run(api, options({ dryRun: true }));
    expect(report.writes).toBe(0);
    // Namespaces, metadata, 3 kubeconfigs, and the names a create would meet (so dry-run reports
    // what a real pass would).
    expect(report.requestsByVerb).toEqual({ LIST: 6 });
    expect(
      log
        .messages('info')
        .filter(m => m === '[dry-run] would create cluster secret'),
    ).toHaveLength(3);
    expect(api.secret('argocd', 'cluster-child-000')).toBeUndefined();
  });

  it('GETs only the namespaces an owned Secret records and the LIST no longer shows, then deletes with the UID', async () => {
    const api = world(2);
    await run(api);
    api.namespaces.delete('child-001');
    const deleted: Array<Record<string, unknown>> = [];
    const del = api.deleteSecret.bind(api);
    api.deleteSecret = async (n, name, pre) => {
      deleted.push({ name, ...pre });
      return del(n, name, pre);
    };
    const uid = api.secret('argocd', 'cluster-child-001')!.metadata.uid;
    const { report, log } = await run(api);
    expect(report.requestsByVerb).toEqual({ LIST: 2, GET: 1, DELETE: 1 });
    expect(deleted).toEqual([{ name: 'cluster-child-001', uid }]);
    expect(log.messages('info')).toContain(
      'deregistered cluster (source namespace gone)',
    );
    expect(api.secret('argocd', 'cluster-child-000')).toBeDefined();
  });

  it('leaves a Secret alone when its delete loses the UID precondition', async () => {
    const api = world(1);
    await run(api);
    api.namespaces.delete('child-000');
    api.fail = verb =>
      verb === 'DELETE'
        ? new KubeApiError(409, 'Conflict', 'Precondition failed: UID')
        : undefined;
    const { report, log } = await run(api);
    expect(report.errors).toEqual([]);
    expect(log.messages('info')).toContain(
      'cluster secret changed identity before deletion; leaving it',
    );
  });

  it('isolates a failing namespace: the others still register, and the pass reports the error', async () => {
    const api = world(3);
    api.fail = (verb, t) =>
      verb === 'POST' && t.name === 'cluster-child-001'
        ? new KubeApiError(
            500,
            'InternalError',
            'CREATE secret argocd/cluster-child-001: etcd is sad',
          )
        : undefined;
    const { report, log } = await run(api);
    expect(report.created).toBe(2);
    expect(report.errors).toEqual([
      'child-001: create cluster secret: CREATE secret argocd/cluster-child-001: etcd is sad',
    ]);
    expect(log.messages('error')).toContain('failed to create cluster secret');
    expect(log.messages('error')).toContain(
      'registrar pass completed with errors',
    );
  });

  it('turns AlreadyExists on create into a create_race conflict, not an error', async () => {
    const api = world(1);
    api.fail = verb =>
      verb === 'POST'
        ? new KubeApiError(409, 'AlreadyExists', 'exists')
        : undefined;
    const { report, meter } = await run(api);
    expect(report.errors).toEqual([]);
    expect(report.conflicts.map(c => c.reason)).toEqual(['create_race']);
    expect(
      meter.value(REGISTRAR_METRIC_NAMES.conflicts, { reason: 'create_race' }),
    ).toBe(1);
  });

  it('updates read-modify-write with the resourceVersion it read (409 when the object moved)', async () => {
    const api = world(1);
    await run(api);
    api.addSecret(
      k3kSecret(
        'child-000',
        'child-000',
        kubeconfig({ server: 'https://moved:6443' }),
      ),
    );
    const put = api.replaceSecret.bind(api);
    api.replaceSecret = async s => {
      // Someone else writes between our LIST and our PUT.
      const live = api.secret('argocd', s.metadata.name)!;
      live.metadata.resourceVersion = '999999';
      return put(s);
    };
    const { report } = await run(api);
    expect(report.updated).toBe(0);
    expect(report.errors[0]).toContain('update cluster secret');
  });

  it('counts conflicts and adoptions; publishes every conflict reason at zero first', async () => {
    const api = world(2);
    const orphan = ownedLabels('child-000', 'x');
    delete orphan['argocd-cluster-registrar/source-namespace'];
    api.addSecret(argo('cluster-child-000', { labels: orphan }));
    api.addSecret(
      argo('cluster-child-001', { labels: { [SECRET_TYPE]: 'cluster' } }),
    );
    const { report, meter } = await run(api);
    for (const reason of [
      'not_managed',
      'orphan_cluster_mismatch',
      'incumbent',
      'contested_name',
      'create_race',
      'server_collision',
    ]) {
      expect(meter.calls).toContainEqual({
        name: REGISTRAR_METRIC_NAMES.conflicts,
        kind: 'counter',
        value: 0,
        attributes: { reason },
      });
    }
    expect(
      meter.value(REGISTRAR_METRIC_NAMES.conflicts, { reason: 'not_managed' }),
    ).toBe(1);
    expect(meter.value(REGISTRAR_METRIC_NAMES.adoptions)).toBe(1);
    expect(report.updated).toBe(1);
  });

  it('sets the unrouted gauge and warns for owned Secrets recording no source namespace', async () => {
    const api = world(0);
    const labels = ownedLabels('lost', 'x');
    delete labels['argocd-cluster-registrar/source-namespace'];
    api.addSecret(
      argo('cluster-lost', { labels: { ...labels, [PRUNE]: 'disabled' } }),
    );
    const { meter, log } = await run(api);
    expect(meter.value(REGISTRAR_METRIC_NAMES.unrouted)).toBe(1);
    expect(log.messages('warn')).toContain(
      'owned cluster secret records no source namespace; it can never be collected',
    );
  });

  it('reports a failed LIST and changes nothing', async () => {
    const api = world(1);
    api.fail = (verb, t) =>
      verb === 'LIST' && t.name === 'secrets'
        ? new KubeApiError(403, 'Forbidden', 'LIST secrets: forbidden')
        : undefined;
    const { report } = await run(api);
    expect(report.writes).toBe(0);
    expect(report.errors[0]).toContain('forbidden');
  });

  it('stops writing once aborted', async () => {
    const api = world(20);
    const controller = new AbortController();
    const post = api.createSecret.bind(api);
    api.createSecret = async s => {
      controller.abort();
      return post(s);
    };
    const { report } = await run(api, options(), {
      signal: controller.signal,
      concurrency: 1,
    });
    expect(report.aborted).toBe(true);
    expect(report.created).toBe(1);
  });
});

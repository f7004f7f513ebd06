import {
  isAlreadyExists,
  isConflict,
  isNotFound,
  retryOnConflict,
} from '../errors';

const failure = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: unknown) => e,
  );
import {
  InMemoryManagementApi,
  matchesLabelSelector,
} from './memoryManagementApi';

const cluster = (name: string) => ({
  apiVersion: 'infrared.darkshift.io/v1alpha1',
  kind: 'Cluster' as const,
  metadata: { name },
  spec: { type: 'workload' as const },
});

describe('InMemoryManagementApi', () => {
  it('behaves like the API server on conflicts, AlreadyExists, the status subresource and garbage collection', async () => {
    const api = new InMemoryManagementApi();
    const created = await api.clusters.create({
      ...cluster('a'),
      status: { nodes: 9 },
    });
    expect(created.status).toBeUndefined();
    expect(created.metadata.generation).toBe(1);
    expect(
      isAlreadyExists(await failure(api.clusters.create(cluster('a')))),
    ).toBe(true);

    const written = await api.clusters.replaceStatus({
      ...created,
      status: { nodes: 1 },
    });
    expect(written.status).toEqual({ nodes: 1 });
    expect(
      isConflict(
        await failure(
          api.clusters.replaceStatus({ ...created, status: { nodes: 2 } }),
        ),
      ),
    ).toBe(true);

    await api.secrets.create({
      apiVersion: 'v1',
      kind: 'Secret',
      type: 'Opaque',
      metadata: {
        name: 's',
        namespace: 'infrared',
        labels: { app: 'x' },
        ownerReferences: [
          {
            apiVersion: 'v',
            kind: 'Cluster',
            name: 'a',
            uid: created.metadata.uid!,
          },
        ],
      },
      stringData: { k: 'v' },
    });
    expect((await api.secrets.get('infrared', 's'))!.data).toEqual({
      k: 'dg==',
    });
    expect(await api.secrets.list('infrared', 'app=x')).toHaveLength(1);
    expect(await api.secrets.list('infrared', 'app=y')).toHaveLength(0);
    await api.clusters.delete('a');
    expect(await api.secrets.get('infrared', 's')).toBeUndefined();
    expect(isNotFound(await failure(api.clusters.delete('a')))).toBe(true);
    expect(api.counter.total).toBeGreaterThan(5);
  });

  it('matches equality and existence selectors', () => {
    expect(matchesLabelSelector({ a: '1', b: '2' }, 'a=1,b')).toBe(true);
    expect(matchesLabelSelector({ a: '1' }, 'a==2')).toBe(false);
    expect(matchesLabelSelector(undefined, '')).toBe(true);
  });
});

describe('retryOnConflict', () => {
  it('retries conflicts a bounded number of times, and nothing else', async () => {
    const api = new InMemoryManagementApi();
    const c = await api.clusters.create(cluster('a'));
    await api.clusters.replaceStatus({ ...c, status: { nodes: 1 } });
    let attempts = 0;
    await retryOnConflict(async attempt => {
      attempts++;
      const current = attempt === 1 ? c : (await api.clusters.get('a'))!;
      await api.clusters.replaceStatus({ ...current, status: { nodes: 2 } });
    });
    expect(attempts).toBe(2);

    let tries = 0;
    const error = await failure(
      retryOnConflict(async () => {
        tries++;
        await api.clusters.replaceStatus({ ...c, status: { nodes: 3 } });
      }, 3),
    );
    expect(isConflict(error)).toBe(true);
    expect(tries).toBe(3);
  });
});

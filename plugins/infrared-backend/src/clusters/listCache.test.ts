import type { ClusterResource } from '@infrared-clusters/plugin-infrared-common';
import { clusterResource } from './__testUtils__/fixtures';
import { ClusterListCache, type WatchedClusters } from './listCache';

/** What a watch holds at a moment: the test moves it as the API server's events would. */
class Watched implements WatchedClusters {
  isSynced = true;
  version = 1;
  private held: ClusterResource[] = [];
  get objects() {
    return this.held;
  }
  /** A change the watch brought: its version moves. */
  set objects(objects: ClusterResource[]) {
    this.held = objects;
    this.version += 1;
  }
  list() {
    return [...this.held];
  }
  /** Reads of one Cluster by name (a lookup, not a list). */
  gets = 0;
  get(name: string) {
    this.gets += 1;
    return this.held.find(c => c.metadata.name === name);
  }
}

const at = (name: string, resourceVersion: string) =>
  clusterResource(name, { metadata: { resourceVersion } });
const names = (cache: ClusterListCache) =>
  cache
    .list()
    ?.map(v => v.name)
    .sort();

describe('ClusterListCache', () => {
  let watched: Watched;
  let now: number;
  let cache: ClusterListCache;
  beforeEach(() => {
    watched = new Watched();
    now = 0;
    cache = new ClusterListCache(watched, () => now);
  });

  it('answers the watched list itself while nothing is laid over it, and looks a written Cluster up by name', () => {
    watched.objects = [at('a', '1'), at('b', '2')];
    const listed = jest.spyOn(watched, 'list');
    const resources = cache.resources();
    expect(listed).toHaveBeenCalledTimes(1);
    expect(resources).toBe(listed.mock.results[0].value);

    cache.created(at('c', '3'));
    expect(listed).toHaveBeenCalledTimes(1); // the overlay read 'c' by name
    expect(watched.gets).toBe(1);
    expect(
      cache
        .resources()
        ?.map(r => r.metadata.name)
        .sort(),
    ).toEqual(['a', 'b', 'c']);
  });

  it('says nothing until the watch has synced, so the list is read live', () => {
    watched.isSynced = false;
    watched.objects = [at('a', '1')];
    expect(cache.list()).toBeUndefined();
  });

  it('lists what the watch holds, as views', () => {
    watched.objects = [at('a', '1'), at('b', '2')];
    expect(names(cache)).toEqual(['a', 'b']);
    expect(cache.list()?.[0]).toMatchObject({
      name: 'a',
      connection: 'kubeconfig',
    });
  });

  it('makes a view once per object, a new one when the watch brings a new version', () => {
    const first = at('a', '1');
    watched.objects = [first];
    const view = cache.list()![0];
    expect(cache.list()![0]).toBe(view);
    watched.objects = [at('a', '2')];
    expect(cache.list()![0]).not.toBe(view);
  });

  it('gives the same list while the watch is unchanged, a new one once it changes or a write is laid over it', () => {
    watched.objects = [at('a', '1')];
    const first = cache.list();
    expect(cache.list()).toBe(first);
    watched.objects = [at('a', '2')];
    const second = cache.list();
    expect(second).not.toBe(first);
    expect(second?.[0]).not.toBe(first?.[0]);
    cache.created(at('b', '3'));
    expect(names(cache)).toEqual(['a', 'b']);
    expect(cache.list()).not.toBe(second);
  });

  it.each([
    ['a Cluster this process created', 'created'],
    ['a Cluster this process removed', 'removed'],
  ])('shows %s before the watch has brought it', (_, write) => {
    if (write === 'removed') watched.objects = [at('a', '1')];
    if (write === 'created') cache.created(at('a', '5'));
    else cache.removed('a');
    expect(names(cache)).toEqual(write === 'created' ? ['a'] : []);
  });

  it('lets the watch win once it has moved past the write', () => {
    cache.created(at('a', '5'));
    const newer = clusterResource('a', {
      metadata: { resourceVersion: '6' },
      status: { nodes: 3 },
    });
    watched.objects = [newer];
    expect(cache.list()![0].nodes).toBe(3);
    watched.objects = []; // removed by someone else afterwards
    expect(names(cache)).toEqual([]);
  });

  it('shows a Cluster removed here again when it is made anew', () => {
    watched.objects = [at('a', '1')];
    cache.removed('a');
    expect(names(cache)).toEqual([]);
    watched.objects = [at('a', '9')];
    expect(names(cache)).toEqual(['a']);
  });

  it('drops a write the watch never confirms after 10 s', () => {
    cache.created(at('ghost', '5'));
    now = 9_000;
    expect(names(cache)).toEqual(['ghost']);
    now = 10_001;
    expect(names(cache)).toEqual([]);
  });
});

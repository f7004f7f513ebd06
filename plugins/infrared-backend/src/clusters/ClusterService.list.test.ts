import { mockServices } from '@backstage/backend-test-utils';
import type {
  ClusterResource,
  DiscoveredClusterInput,
} from '@infrared-clusters/plugin-infrared-common';
import { InMemoryManagementApi } from '@infrared-clusters/infrared-kube/testUtils';
import { clusterResource } from './__testUtils__/fixtures';
import { ClusterService } from './ClusterService';
import { ClusterListCache, type WatchedClusters } from './listCache';

/** A synced watch whose list the test replaces, as the API server's events would. */
class Watched implements WatchedClusters {
  isSynced = true;
  version = 1;
  constructor(private held: ClusterResource[]) {}
  set objects(objects: ClusterResource[]) {
    this.held = objects;
    this.version += 1;
  }
  list() {
    return this.held;
  }
}

const child = (name: string): DiscoveredClusterInput => ({
  name,
  server: `https://${name}:6443`,
  sourceNamespace: `ns-${name}`,
  provider: 'k3k',
  state: 'active',
});

function setup() {
  const watched = new Watched([clusterResource('b'), clusterResource('d')]);
  let discovered = [child('c')];
  const service = new ClusterService({
    api: new InMemoryManagementApi(),
    managementCluster: 'infrared-mgmt',
    logger: mockServices.logger.mock(),
    listCache: new ClusterListCache(watched),
    listDiscovered: async () => discovered,
  });
  return {
    service,
    watched,
    discover: (names: string[]) => {
      discovered = names.map(child);
    },
  };
}

const names = (views: { name: string }[]) => views.map(v => v.name);

describe('ClusterService.list over the watch cache (issue 25: a page of 100 at 10,000)', () => {
  it('gives the same array while neither the Clusters nor the children changed', async () => {
    const { service } = setup();
    const first = await service.list();
    expect(names(first)).toEqual(['b', 'c', 'd']);
    // before: a new array per call, so every page sorted the whole list again
    expect(await service.list()).toBe(first);
  });

  it('gives a new list when the watch or the children changed', async () => {
    const { service, watched, discover } = setup();
    const first = await service.list();
    watched.objects = [clusterResource('a'), clusterResource('b')];
    const second = await service.list();
    expect(names(second)).toEqual(['a', 'b', 'c']);
    discover(['e']);
    const third = await service.list();
    expect(names(third)).toEqual(['a', 'b', 'e']);
    expect(first).not.toBe(second);
    expect(await service.list()).toBe(third);
  });
});

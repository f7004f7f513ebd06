import type {
  DiscoveredClusterInput,
  SecretObject,
} from '@infrared-clusters/plugin-infrared-common';
import { DiscoveredList, type WatchedDiscovered } from './discoveredList';

/** An Argo CD Secret the registrar owns, for child `name`. */
const childSecret = (name: string): SecretObject => ({
  apiVersion: 'v1',
  kind: 'Secret',
  type: 'Opaque',
  metadata: {
    name: `cluster-${name}`,
    namespace: 'argocd',
    labels: {
      'argocd.argoproj.io/secret-type': 'cluster',
      'argocd-cluster-registrar/managed-by': 'cluster-registrar',
      'argocd-cluster-registrar/cluster': name,
      'argocd-cluster-registrar/source-namespace': `ns-${name}`,
      'argocd-cluster-registrar/provider': 'k3k',
    },
  },
  data: {
    name: Buffer.from(name).toString('base64'),
    server: Buffer.from(`https://${name}.ns-${name}:6443`).toString('base64'),
  },
});

const PASS = {
  outcome: 'registered',
  at: '2026-12-02T20:00:00Z',
  since: '2026-12-02T20:00:00Z',
} as const;

class FakeWatch implements WatchedDiscovered {
  isHealthy = true;
  version = 1;
  constructor(public secrets: SecretObject[]) {}
  list() {
    return this.secrets;
  }
}

function setup(watched?: FakeWatch) {
  const lists: string[] = [];
  const live = [childSecret('live')];
  let passesVersion = 1;
  const list = new DiscoveredList({
    secrets: {
      list: async (namespace, selector) => {
        lists.push(`${namespace} ${selector}`);
        return live;
      },
    },
    options: {},
    watched,
    passes: {
      apply: listed => listed.map(c => ({ ...c, lastPass: PASS })),
      version: () => passesVersion,
    },
  });
  return { list, lists, nextPass: () => passesVersion++ };
}

const names = (listed: DiscoveredClusterInput[]) => listed.map(c => c.name);

describe('DiscoveredList (the registrar children on GET /v1/clusters)', () => {
  it('reads a healthy watch, with no LIST, and gives the same array while nothing changed', async () => {
    const watch = new FakeWatch([childSecret('b'), childSecret('a')]);
    const { list, lists } = setup(watch);
    const first = await list.list();
    expect(names(first)).toEqual(['a', 'b']);
    expect(first[0]).toMatchObject({
      server: 'https://a.ns-a:6443',
      sourceNamespace: 'ns-a',
      lastPass: { outcome: 'registered' },
    });
    // before: a LIST per request, and a new array each time
    expect(await list.list()).toBe(first);
    expect(lists).toEqual([]);
  });

  it('gives a new list once the watch or the registrar pass changed', async () => {
    const watch = new FakeWatch([childSecret('a')]);
    const { list, nextPass } = setup(watch);
    const first = await list.list();
    watch.secrets = [childSecret('a'), childSecret('c')];
    watch.version++;
    const second = await list.list();
    expect(second).not.toBe(first);
    expect(names(second)).toEqual(['a', 'c']);
    nextPass();
    const third = await list.list();
    expect(third).not.toBe(second);
    expect(third).toEqual(second);
  });

  it('LISTs while the watch is not healthy, and without one', async () => {
    const watch = new FakeWatch([childSecret('watched')]);
    watch.isHealthy = false;
    const unhealthy = setup(watch);
    expect(names(await unhealthy.list.list())).toEqual(['live']);
    expect(unhealthy.lists).toEqual([
      'argocd argocd-cluster-registrar/managed-by=cluster-registrar',
    ]);
    const none = setup();
    expect(names(await none.list.list())).toEqual(['live']);
    expect(none.lists).toHaveLength(1);
  });
});

import {
  clusterForRequest,
  type ClusterResource,
} from '@infrared-clusters/plugin-infrared-common';
import { ServerIndex, type KubeconfigRead } from './serverIndex';
import { kubeconfigText } from './__testUtils__/fixtures';

const S1 = 'https://198.51.100.1:6443';
const S2 = 'https://198.51.100.2:6443';

let versions = 0;

/** A Cluster as a watch gives it: a new object (and resourceVersion) for every change. */
function cluster(
  name: string,
  how: {
    argoServer?: string;
    server?: string;
    deleting?: boolean;
    inCluster?: boolean;
  } = {},
): ClusterResource {
  const made = clusterForRequest(
    how.inCluster
      ? { name, inCluster: true }
      : { name, kubeconfig: kubeconfigText(), server: how.server },
  );
  return {
    ...made,
    metadata: {
      ...made.metadata,
      uid: `uid-${name}`,
      resourceVersion: String(++versions),
      ...(how.deleting ? { deletionTimestamp: '2026-12-02T16:00:00Z' } : {}),
    },
    status: how.argoServer ? { argoServer: how.argoServer } : undefined,
  };
}

/** Each Cluster's kubeconfig's server by name, read as its Secret would be; reads counted. */
function reader(kubeconfigServers: Record<string, string>) {
  const reads: string[] = [];
  const read = async (c: ClusterResource) => {
    reads.push(c.metadata.name);
    const server = kubeconfigServers[c.metadata.name];
    return { servers: server ? [server] : [] };
  };
  return { read, reads };
}

const a1 = cluster('a', { argoServer: S1 });
const a1Slash = cluster('a', { argoServer: `${S1}/` });
const a2 = cluster('a', { argoServer: S2 });
const b1 = cluster('b', { server: S1 });
const aDeleting = cluster('a', { argoServer: S1, deleting: true });
const aKubeconfig = cluster('a');
const local = cluster('local', { inCluster: true });

describe('ServerIndex: which Cluster holds a server', () => {
  it.each<[string, ClusterResource[][], string, string | undefined]>([
    ['added: status.argoServer', [[a1]], S1, 'a'],
    ['added: spec.server', [[b1]], S1, 'b'],
    ['trailing / trimmed', [[a1Slash]], S1, 'a'],
    ['another server is free', [[a1]], S2, undefined],
    ['changed server: the old one is free', [[a1], [a2]], S1, undefined],
    ['changed server: the new one is held', [[a1], [a2]], S2, 'a'],
    ['deleted: its server is free', [[a1, b1], [b1]], S2, undefined],
    ['deleted: the other keeps it', [[a1, b1], [b1]], S1, 'b'],
    ['deleted, then another with its server', [[a1], [], [b1]], S1, 'b'],
    [
      'one gone, another come, in one change',
      [
        [a2, local],
        [b1, local],
      ],
      S2,
      undefined,
    ],
    [
      'the same Clusters in another order',
      [
        [a1, b1],
        [b1, a2],
      ],
      S2,
      'a',
    ],
    ['being deleted holds no server', [[aDeleting]], S1, undefined],
    ['no longer being deleted holds it again', [[aDeleting], [a1]], S1, 'a'],
    ['kubeconfig only: read', [[aKubeconfig]], S2, 'a'],
    ['inCluster holds no server', [[local]], S1, undefined],
  ])('%s', async (_case, syncs, server, holder) => {
    const index = new ServerIndex(reader({ a: S2 }).read);
    for (const clusters of syncs) index.sync(clusters);
    expect(await index.holder(server, 'new')).toBe(holder);
  });

  it('follows a list changed in place by its caller', async () => {
    const index = new ServerIndex(reader({}).read);
    const list = [a1];
    index.sync(list);
    list[0] = a2;
    index.sync(list);
    expect(await index.holder(S1, 'new')).toBeUndefined();
    expect(await index.holder(S2, 'new')).toBe('a');
  });

  it('knows the kubeconfig server of a Cluster made here without a read; its next version gets it as the last read', async () => {
    const lasts: (KubeconfigRead | undefined)[] = [];
    const index = new ServerIndex(async (_c, last) => {
      lasts.push(last);
      return last ?? { servers: [] };
    });
    const made = cluster('a');
    index.known(made, { servers: [S2], from: 'kubeconfig-1' });
    index.sync([made]);
    expect(await index.holder(S2, 'new')).toBe('a');
    expect(lasts).toEqual([]);
    index.sync([cluster('a')]);
    expect(await index.holder(S2, 'new')).toBe('a');
    expect(lasts).toEqual([{ servers: [S2], from: 'kubeconfig-1' }]);
  });

  it('the same name is not its own holder', async () => {
    const index = new ServerIndex(reader({}).read);
    index.sync([a1, b1]);
    expect(await index.holder(S1, 'a')).toBe('b');
    index.sync([a1]);
    expect(await index.holder(S1, 'a')).toBeUndefined();
  });

  it("reads a kubeconfig's server once per version of the Cluster, and again after a failed read", async () => {
    const { read, reads } = reader({ a: S2 });
    let fail = true;
    const index = new ServerIndex(async c => {
      if (fail) {
        fail = false;
        throw new Error('secret read failed');
      }
      return read(c);
    });
    index.sync([aKubeconfig, b1]);
    await expect(index.holder(S2, 'new')).rejects.toThrow(/read failed/);
    expect(await index.holder(S2, 'new')).toBe('a');
    index.sync([aKubeconfig, b1]);
    expect(await index.holder(S2, 'new')).toBe('a');
    expect(reads).toEqual(['a']);
    const changed = cluster('a');
    index.sync([changed, b1]);
    expect(await index.holder(S2, 'new')).toBe('a');
    expect(reads).toEqual(['a', 'a']);
  });

  it('a read that ends after a newer version came in does not index the old servers', async () => {
    let finish!: (read: KubeconfigRead) => void;
    const index = new ServerIndex(
      () => new Promise<KubeconfigRead>(resolve => (finish = resolve)),
    );
    index.sync([aKubeconfig]);
    const asked = index.holder(S2, 'new');
    index.sync([a1]);
    finish({ servers: [S2] });
    expect(await asked).toBeUndefined();
    expect(await index.holder(S1, 'new')).toBe('a');
  });

  it("gives the read of a Cluster's last version to the read of its next, not another Cluster's of that name", async () => {
    const lasts: (KubeconfigRead | undefined)[] = [];
    const index = new ServerIndex(async (_c, last) => {
      lasts.push(last);
      return { servers: [S2], from: 'secret-v1' };
    });
    index.sync([aKubeconfig]);
    await index.holder(S2, 'new');
    index.sync([cluster('a')]);
    await index.holder(S2, 'new');
    const other = cluster('a');
    index.sync([{ ...other, metadata: { ...other.metadata, uid: 'uid-a2' } }]);
    await index.holder(S2, 'new');
    expect(lasts).toEqual([
      undefined,
      { servers: [S2], from: 'secret-v1' },
      undefined,
    ]);
  });
});

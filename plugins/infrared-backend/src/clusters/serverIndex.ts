import {
  isInClusterServer,
  trimServer,
  type ClusterResource,
} from '@infrared-clusters/plugin-infrared-common';

/** What a read of a Cluster's kubeconfig found, and from which version of its Secret. */
export interface KubeconfigRead {
  servers: string[];
  /** The kubeconfig read (its text as the Secret holds it): the same again needs no parse. */
  from?: string;
}

/**
 * Reads the servers of a Cluster that names none itself (its kubeconfig's), given what the read
 * of its last version found.
 */
export type ReadServers = (
  cluster: ClusterResource,
  last?: KubeconfigRead,
) => Promise<KubeconfigRead>;

interface Entry {
  resource: ClusterResource;
  /** Indexed under these servers (none while unread, or while the Cluster is being deleted). */
  servers: string[];
  /** The read of its kubeconfig's server, while one is under way. */
  reading?: Promise<void>;
  /** What the last read of its kubeconfig found (of this version, or of the one before). */
  kubeconfig?: KubeconfigRead;
}

/**
 * The servers a Cluster holds or will hold in Argo CD: its status's and its spec.server, trailing
 * `/` trimmed; undefined when it names neither (then its kubeconfig's, read). None for inCluster.
 */
export function namedServers(cluster: ClusterResource): string[] | undefined {
  const { spec, status } = cluster;
  if (spec.connection?.inCluster) return [];
  const named = [status?.argoServer, spec.server]
    .filter((s): s is string => !!s?.trim())
    .map(trimServer)
    .filter(s => !isInClusterServer(s));
  if (named.length || !spec.connection?.kubeconfigSecretRef) return named;
  return undefined;
}

/** The same object, or (from a LIST, which makes new objects) the same uid and resourceVersion. */
function sameVersion(a: ClusterResource, b: ClusterResource): boolean {
  if (a === b) return true;
  const version = a.metadata.resourceVersion;
  return (
    !!version &&
    version === b.metadata.resourceVersion &&
    a.metadata.uid === b.metadata.uid
  );
}

/**
 * Which Cluster holds an API server (issue 25): a registration asked the servers of every
 * Cluster, one `await` a Cluster, so each POST cost more as the fleet grew. The index is brought to
 * the Clusters' list by object identity (a watch gives an unchanged Cluster as the same object, at its
 * place in the list) or version, so a sync only looks up the Clusters changed since the last; a
 * server's holders are then one lookup.
 * A Cluster being deleted holds no server (its Argo CD Secret goes with it).
 */
export class ServerIndex {
  private readonly entries = new Map<string, Entry>();
  private readonly holders = new Map<string, Set<string>>();
  /** Names whose kubeconfig's server is not read yet. */
  private readonly unread = new Set<string>();
  /** The list of the last sync. */
  private last?: readonly ClusterResource[];

  constructor(private readonly read: ReadServers) {}

  /** Brings the index to these Clusters (every Cluster there is): reads nothing. */
  sync(clusters: readonly ClusterResource[]): void {
    const last = this.last;
    // a copy: the caller may change its array after
    this.last = clusters.slice();
    for (let i = 0; i < clusters.length; i++) {
      const cluster = clusters[i];
      // a watch's list keeps an unchanged Cluster's object at its place: no lookup for it
      if (last?.[i] === cluster) continue;
      const entry = this.entries.get(cluster.metadata.name);
      if (!entry || !sameVersion(entry.resource, cluster)) this.put(cluster);
    }
    // names are unique in a list: more entries than Clusters means some are gone
    if (this.entries.size === clusters.length) return;
    const names = new Set(clusters.map(c => c.metadata.name));
    for (const name of this.entries.keys()) {
      if (!names.has(name)) this.drop(name);
    }
  }

  /**
   * A Cluster this process just made, with its kubeconfig's server as the request had it: its
   * versions to come read the Secret, but parse it only when the kubeconfig changed.
   */
  known(cluster: ClusterResource, kubeconfig: KubeconfigRead): void {
    this.put(cluster);
    const entry = this.entries.get(cluster.metadata.name)!;
    entry.kubeconfig = kubeconfig;
    if (!this.unread.delete(cluster.metadata.name)) return;
    this.index(cluster.metadata.name, kubeconfig.servers);
  }

  /**
   * A Cluster other than `except` that holds `server` (trailing `/` trimmed), reading the
   * kubeconfigs of the Clusters that name no server first; undefined when none does.
   */
  async holder(server: string, except: string): Promise<string | undefined> {
    await this.readUnread();
    for (const name of this.holders.get(server) ?? []) {
      if (name !== except) return name;
    }
    return undefined;
  }

  private put(cluster: ClusterResource): void {
    const { name, uid } = cluster.metadata;
    const before = this.entries.get(name);
    this.drop(name);
    const entry: Entry = { resource: cluster, servers: [] };
    if (before && before.resource.metadata.uid === uid) {
      entry.kubeconfig = before.kubeconfig;
    }
    this.entries.set(name, entry);
    if (cluster.metadata.deletionTimestamp) return;
    const named = namedServers(cluster);
    if (named) this.index(name, named);
    else this.unread.add(name);
  }

  private drop(name: string): void {
    const entry = this.entries.get(name);
    if (!entry) return;
    for (const server of entry.servers) {
      const names = this.holders.get(server);
      names?.delete(name);
      if (names?.size === 0) this.holders.delete(server);
    }
    this.entries.delete(name);
    this.unread.delete(name);
  }

  private index(name: string, servers: string[]): void {
    const entry = this.entries.get(name)!;
    entry.servers = servers;
    for (const server of servers) {
      let names = this.holders.get(server);
      if (!names) this.holders.set(server, (names = new Set()));
      names.add(name);
    }
  }

  /** Reads every unread kubeconfig's server at once; a failed read is tried again next time. */
  private async readUnread(): Promise<void> {
    const reads: Promise<void>[] = [];
    for (const name of this.unread) {
      const entry = this.entries.get(name)!;
      entry.reading ??= this.read(entry.resource, entry.kubeconfig)
        .then(read => {
          // a newer version of the Cluster came in meanwhile: its own read counts
          if (this.entries.get(name) !== entry) return;
          this.unread.delete(name);
          entry.kubeconfig = read;
          this.index(
            name,
            read.servers.map(trimServer).filter(s => !isInClusterServer(s)),
          );
        })
        .finally(() => {
          entry.reading = undefined;
        });
      reads.push(entry.reading);
    }
    await Promise.all(reads);
  }
}

import type {
  ClusterResource,
  SecretObject,
} from '@infrared-clusters/plugin-infrared-common';
import {
  resolveConnection,
  type ResolvedConnection,
} from '@infrared-clusters/infrared-kube';

/**
 * resolveConnection, once per Cluster generation and kubeconfig Secret version: a steady pass over
 * 1,000 Clusters otherwise decodes and parses 1,000 kubeconfigs that did not change (issue 17: CPU
 * at rest). The same connection object each pass also lets the prober find its client at once.
 */
export class ConnectionMemo {
  private readonly byCluster = new Map<
    string,
    {
      key: string;
      connection: ResolvedConnection;
      /** The objects it was resolved from: a watch hands the same ones while nothing changed. */
      from: [ClusterResource, SecretObject | undefined];
    }
  >();

  resolve(
    cluster: ClusterResource,
    kubeconfigSecret: SecretObject | undefined,
  ): ResolvedConnection {
    const known = this.known(cluster, kubeconfigSecret);
    return known?.connection ?? this.remember(known, cluster, kubeconfigSecret);
  }

  /**
   * resolve, for a kubeconfig Secret that may come without its data (the pass's watch keeps only
   * its metadata: issue 25, 3 KB a Cluster): the data is read (`read`, a GET) only when this
   * version of the Secret was not resolved before.
   */
  async resolveReading(
    cluster: ClusterResource,
    kubeconfigSecret: SecretObject | undefined,
    read: () => Promise<SecretObject | undefined>,
  ): Promise<ResolvedConnection> {
    const known = this.known(cluster, kubeconfigSecret);
    if (known?.connection) return known.connection;
    const withData =
      kubeconfigSecret && !kubeconfigSecret.data && !kubeconfigSecret.stringData
        ? await read()
        : kubeconfigSecret;
    return this.remember(known, cluster, kubeconfigSecret, withData);
  }

  /** What is kept for this Cluster and Secret version; `connection` only when it still holds. */
  private known(
    cluster: ClusterResource,
    kubeconfigSecret: SecretObject | undefined,
  ): { key: string; connection?: ResolvedConnection } {
    const { name, uid, generation } = cluster.metadata;
    const known = this.byCluster.get(name);
    const versioned = !!kubeconfigSecret?.metadata.resourceVersion;
    if (
      known?.from[0] === cluster &&
      known.from[1] === kubeconfigSecret &&
      versioned
    ) {
      return known;
    }
    const key = JSON.stringify([
      uid,
      generation,
      cluster.spec,
      kubeconfigSecret?.metadata.uid,
      kubeconfigSecret?.metadata.resourceVersion,
    ]);
    if (known?.key === key && versioned) {
      known.from = [cluster, kubeconfigSecret];
      return known;
    }
    return { key };
  }

  private remember(
    known: { key: string },
    cluster: ClusterResource,
    kubeconfigSecret: SecretObject | undefined,
    withData = kubeconfigSecret,
  ): ResolvedConnection {
    const connection = resolveConnection(cluster, withData);
    this.byCluster.set(cluster.metadata.name, {
      key: known.key,
      connection,
      from: [cluster, kubeconfigSecret],
    });
    return connection;
  }

  /** The Clusters it keeps something of. */
  names(): Iterable<string> {
    return this.byCluster.keys();
  }

  /** Forgets a Cluster that is gone. */
  forget(name: string): void {
    this.byCluster.delete(name);
  }
}

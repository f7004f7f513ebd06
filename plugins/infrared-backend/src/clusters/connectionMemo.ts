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
    const { name, uid, generation } = cluster.metadata;
    const known = this.byCluster.get(name);
    if (
      known?.from[0] === cluster &&
      known.from[1] === kubeconfigSecret &&
      kubeconfigSecret?.metadata.resourceVersion
    ) {
      return known.connection;
    }
    const key = JSON.stringify([
      uid,
      generation,
      cluster.spec,
      kubeconfigSecret?.metadata.uid,
      kubeconfigSecret?.metadata.resourceVersion,
    ]);
    const from: [ClusterResource, SecretObject | undefined] = [
      cluster,
      kubeconfigSecret,
    ];
    if (known?.key === key && kubeconfigSecret?.metadata.resourceVersion) {
      known.from = from;
      return known.connection;
    }
    const connection = resolveConnection(cluster, kubeconfigSecret);
    this.byCluster.set(name, { key, connection, from });
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

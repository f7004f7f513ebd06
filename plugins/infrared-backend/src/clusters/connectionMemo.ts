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
    { key: string; connection: ResolvedConnection }
  >();

  resolve(
    cluster: ClusterResource,
    kubeconfigSecret: SecretObject | undefined,
  ): ResolvedConnection {
    const { name, uid, generation } = cluster.metadata;
    const key = JSON.stringify([
      uid,
      generation,
      cluster.spec,
      kubeconfigSecret?.metadata.uid,
      kubeconfigSecret?.metadata.resourceVersion,
    ]);
    const known = this.byCluster.get(name);
    if (known?.key === key && kubeconfigSecret?.metadata.resourceVersion) {
      return known.connection;
    }
    const connection = resolveConnection(cluster, kubeconfigSecret);
    this.byCluster.set(name, { key, connection });
    return connection;
  }

  /** Forgets a Cluster that is gone. */
  forget(name: string): void {
    this.byCluster.delete(name);
  }
}

import type {
  ClusterResource,
  SecretObject,
} from '@infrared-clusters/plugin-infrared-common';
import { clusterEndpoint, type ClusterEndpoint } from '../entities';

/**
 * `clusterEndpoint` remembered by what it is computed from (the Cluster's connection and
 * spec.server, the Secret's uid and resourceVersion), so that a full mutation parses a kubeconfig
 * again only when its Secret or the Cluster's connection changed. It keeps what the last full
 * mutation used, no more.
 */
export class EndpointMemo {
  private current = new Map<string, ClusterEndpoint | undefined>();
  private used?: Map<string, ClusterEndpoint | undefined>;

  constructor(private readonly management: ClusterEndpoint | undefined) {}

  /** Starts a full mutation: what it does not ask for is forgotten at `endRound`. */
  startRound(): void {
    this.used = new Map();
  }

  endRound(): void {
    if (this.used) this.current = this.used;
    this.used = undefined;
  }

  endpoint(
    cluster: ClusterResource,
    kubeconfigSecret: SecretObject | undefined,
  ): ClusterEndpoint | undefined {
    const key = JSON.stringify([
      cluster.spec.connection ?? null,
      cluster.spec.server ?? null,
      kubeconfigSecret?.metadata.uid ?? null,
      kubeconfigSecret?.metadata.resourceVersion ?? null,
    ]);
    let endpoint: ClusterEndpoint | undefined;
    if (kubeconfigSecret?.metadata.resourceVersion && this.current.has(key)) {
      endpoint = this.current.get(key);
    } else {
      endpoint = clusterEndpoint(cluster, kubeconfigSecret, this.management);
      this.current.set(key, endpoint);
    }
    this.used?.set(key, endpoint);
    return endpoint;
  }
}

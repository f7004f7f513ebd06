import type {
  ClusterResource,
  SecretObject,
} from '@infrared-clusters/plugin-infrared-common';
import { clusterEndpoint, type ClusterEndpoint } from '../entities';

/**
 * `clusterEndpoint` remembered by what it is computed from (the Cluster's connection and
 * spec.server, its status's Argo CD Secret and server, the uid and resourceVersion of its
 * kubeconfig Secret and Argo CD Secret), so that a full mutation parses a kubeconfig
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
    argoSecret?: SecretObject,
  ): ClusterEndpoint | undefined {
    const key = JSON.stringify([
      cluster.spec.connection ?? null,
      cluster.spec.server ?? null,
      kubeconfigSecret?.metadata.uid ?? null,
      kubeconfigSecret?.metadata.resourceVersion ?? null,
      cluster.metadata.uid ?? null,
      cluster.status?.argoSecret ?? null,
      cluster.status?.argoServer ?? null,
      argoSecret?.metadata.uid ?? null,
      argoSecret?.metadata.resourceVersion ?? null,
    ]);
    const versioned =
      !!kubeconfigSecret?.metadata.resourceVersion ||
      !!argoSecret?.metadata.resourceVersion;
    let endpoint: ClusterEndpoint | undefined;
    if (versioned && this.current.has(key)) {
      endpoint = this.current.get(key);
    } else {
      endpoint = clusterEndpoint(
        cluster,
        kubeconfigSecret,
        this.management,
        argoSecret,
      );
      this.current.set(key, endpoint);
    }
    this.used?.set(key, endpoint);
    return endpoint;
  }
}

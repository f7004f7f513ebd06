import type {
  ClusterDetails,
  KubernetesClustersSupplier,
} from '@backstage/plugin-kubernetes-node';
import type { RegisteredClusters } from './registeredClusters';

/**
 * The Kubernetes plugin's clusters: its default supplier's (kubernetes.clusterLocatorMethods) and
 * every Registered Cluster, read from the watched caches at each call, so a cluster registered or
 * removed shows or goes at the next call with no restart and no request.
 */
export class InfraredClustersSupplier implements KubernetesClustersSupplier {
  constructor(
    private readonly clusters: RegisteredClusters,
    private readonly ready: () => Promise<void>,
    private readonly fallback?: KubernetesClustersSupplier,
  ) {}

  async getClusters(
    options: Parameters<KubernetesClustersSupplier['getClusters']>[0],
  ): Promise<ClusterDetails[]> {
    await this.ready();
    const [configured, registered] = await Promise.all([
      this.fallback?.getClusters(options) ?? [],
      this.clusters.details(),
    ]);
    const taken = new Set(configured.map(c => c.name));
    return [...configured, ...registered.filter(c => !taken.has(c.name))];
  }
}

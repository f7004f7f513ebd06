import type { LoggerService } from '@backstage/backend-plugin-api';
import { ANNOTATION_KUBERNETES_AUTH_PROVIDER } from '@backstage/plugin-kubernetes-common';
import type {
  ClusterDetails,
  KubernetesCredential,
} from '@backstage/plugin-kubernetes-node';
import {
  ClusterConditionTypes,
  INFRARED_NAMESPACE,
  type ClusterResource,
  type SecretObject,
} from '@infrared-clusters/plugin-infrared-common';
import {
  kubeconfigSecretRef,
  resolveConnection,
} from '@infrared-clusters/infrared-kube';
import { targetForArgo, type KubeTarget, type UnusableTarget } from './target';
import { resolveViewerConnection } from './viewer';

/**
 * The auth strategy's key: ClusterDetails of Infrared's clusters name it as their auth provider.
 *
 * @public
 */
export const INFRARED_AUTH_PROVIDER = 'infrared';
/**
 * authMetadata key naming the Cluster resource a ClusterDetails stands for.
 *
 * @public
 */
export const INFRARED_CLUSTER_METADATA = 'infrared.darkshift.io/cluster';

/** Where the Clusters and kubeconfig Secrets are read from: caches, never a request. */
export interface ClusterSource {
  list(): ClusterResource[];
  get(name: string): ClusterResource | undefined;
}
export interface SecretSource {
  get(name: string, namespace: string): SecretObject | undefined;
}

export interface RegisteredClustersOptions {
  clusters: ClusterSource;
  secrets: SecretSource;
  logger: LoggerService;
  /** ClusterDetails.skipMetricsLookup for every cluster (no metrics-server there). */
  skipMetricsLookup?: boolean;
}

const isRegistered = (cluster: ClusterResource) =>
  !cluster.metadata.deletionTimestamp &&
  cluster.status?.conditions?.some(
    c => c.type === ClusterConditionTypes.Registered && c.status === 'True',
  ) === true;

/** Why an inCluster Cluster without a viewer kubeconfig is left out. */
export const MANAGEMENT_LEFT_OUT =
  "it is the management cluster (spec.connection.inCluster), and the backend's own identity is never handed to the Kubernetes plugin: set spec.connection.viewerKubeconfigSecretRef to a read-only kubeconfig Secret to show it";

const isUnusable = (t: KubeTarget | UnusableTarget): t is UnusableTarget =>
  'unusable' in t;

/**
 * Every Registered Cluster as the Kubernetes plugin wants it (ClusterDetails without any
 * credential), and each one's credential at request time, both from the caches of the Clusters and
 * of the kubeconfig Secrets in namespace infrared: no request to the management cluster. The
 * credential is the cluster's viewer kubeconfig when it names one, else Argo CD's; the management
 * cluster (inCluster) is supplied only with a viewer kubeconfig.
 */
export class RegisteredClusters {
  /** The reason last logged per cluster, so an unusable cluster is logged once, not per tab load. */
  private readonly warned = new Map<string, string>();

  constructor(private readonly options: RegisteredClustersOptions) {}

  /** ClusterDetails of every Registered Cluster the Kubernetes plugin's fetcher can reach. */
  async details(): Promise<ClusterDetails[]> {
    const out: ClusterDetails[] = [];
    const clusters = this.options.clusters
      .list()
      .filter(isRegistered)
      .sort((a, b) => a.metadata.name.localeCompare(b.metadata.name));
    for (const cluster of clusters) {
      const name = cluster.metadata.name;
      const target = await this.target(cluster);
      if (isUnusable(target)) {
        this.warnOnce(name, target.unusable);
        continue;
      }
      this.warned.delete(name);
      out.push({
        name,
        title: name,
        url: target.url,
        caData: target.caData,
        skipTLSVerify: target.skipTLSVerify,
        skipMetricsLookup: this.options.skipMetricsLookup ?? false,
        authMetadata: {
          [ANNOTATION_KUBERNETES_AUTH_PROVIDER]: INFRARED_AUTH_PROVIDER,
          [INFRARED_CLUSTER_METADATA]: name,
        },
      });
    }
    return out;
  }

  /** The credential of a Registered Cluster, from its (viewer) kubeconfig Secret as the cache holds it now. */
  async credential(name: string): Promise<KubernetesCredential> {
    const cluster = this.options.clusters.get(name);
    if (!cluster || !isRegistered(cluster)) {
      throw new Error(
        `infrared: cluster ${name} is not a Registered Cluster (any more)`,
      );
    }
    const target = await this.target(cluster);
    if (isUnusable(target)) {
      throw new Error(
        `infrared: cluster ${name} cannot be reached: ${target.unusable}`,
      );
    }
    return target.credential;
  }

  /**
   * How the Kubernetes plugin reaches a Cluster: through its viewer kubeconfig when it names one
   * (never falling back to another credential when that one is unusable), else, for a cluster
   * reached through a kubeconfig Secret, through the one Argo CD uses. An inCluster Cluster
   * without a viewer kubeconfig is left out: the backend's own identity is never handed out.
   */
  private async target(
    cluster: ClusterResource,
  ): Promise<KubeTarget | UnusableTarget> {
    const viewer = resolveViewerConnection(cluster, name =>
      this.options.secrets.get(name, INFRARED_NAMESPACE),
    );
    if (viewer.kind === 'unusable') return { unusable: viewer.message };
    if (viewer.kind === 'viewer') return targetForArgo(viewer.argo);
    if (cluster.spec.connection?.inCluster) {
      return { unusable: MANAGEMENT_LEFT_OUT };
    }
    const ref = kubeconfigSecretRef(cluster);
    const secret = ref
      ? this.options.secrets.get(ref.name, INFRARED_NAMESPACE)
      : undefined;
    const connection = resolveConnection(cluster, secret);
    if (connection.kind === 'unusable') return { unusable: connection.message };
    if (connection.kind === 'inCluster')
      return { unusable: MANAGEMENT_LEFT_OUT };
    return targetForArgo(connection.argo);
  }

  private warnOnce(name: string, reason: string) {
    if (this.warned.get(name) === reason) return;
    this.warned.set(name, reason);
    this.options.logger.warn(
      `infrared: cluster ${name} is left out of the Kubernetes plugin: ${reason}`,
    );
  }
}

import type { LoggerService } from '@backstage/backend-plugin-api';
import { ConflictError, NotFoundError } from '@backstage/errors';
import {
  ARGOCD_NAMESPACE,
  argoSecretManager,
  argoSecretName,
  clusterForRequest,
  describeArgoSecretManager,
  clusterView,
  discoveredClusterView,
  type DiscoveredClusterInput,
  INFRARED_NAMESPACE,
  kubeconfigSecret,
  kubeconfigSecretName,
  type ClusterView,
  type RegisterClusterRequest,
  type SecretObject,
  validateClusterName,
} from '@internal/plugin-infrared-common';
import {
  controllerReferenceTo,
  isAlreadyExists,
  isNotFound,
  type ManagementApi,
} from '@internal/plugin-infrared-node';
import { fromKubeError } from './errors';
import { dependentLabels, isManagementCluster } from './plan';

export interface ClusterServiceOptions {
  api: ManagementApi;
  managementCluster: string;
  logger: LoggerService;
  /** Called after a write, so reconciliation starts at once. */
  onChange?: (clusterName: string) => void;
  /** Child clusters the registrar registered, listed beside the Clusters. */
  listDiscovered?: () => Promise<DiscoveredClusterInput[]>;
}

/** Registration, listing and removal of Clusters; the REST API's only way to Kubernetes. */
export class ClusterService {
  constructor(private readonly options: ClusterServiceOptions) {}

  async list(): Promise<ClusterView[]> {
    try {
      const [clusters, discovered] = await Promise.all([
        this.options.api.clusters.list(),
        this.options.listDiscovered?.() ?? [],
      ]);
      return [
        ...clusters.map(clusterView),
        ...discovered.map(discoveredClusterView),
      ].sort((a, b) => a.name.localeCompare(b.name));
    } catch (e) {
      throw fromKubeError(e);
    }
  }

  async get(name: string): Promise<ClusterView> {
    if (validateClusterName(name)) {
      throw new NotFoundError(`cluster ${name} does not exist`);
    }
    let cluster;
    try {
      cluster = await this.options.api.clusters.get(name);
    } catch (e) {
      throw fromKubeError(e);
    }
    if (!cluster) throw new NotFoundError(`cluster ${name} does not exist`);
    return clusterView(cluster);
  }

  /**
   * Registers a workload cluster from a validated request: the kubeconfig Secret, then the Cluster
   * (the Secret removed again when the Cluster can't be made), then the Secret's owner reference.
   * Nothing is written when the name is taken.
   */
  async register(request: RegisterClusterRequest): Promise<ClusterView> {
    const { api, logger } = this.options;
    const name = request.name;
    const taken = () =>
      new ConflictError(`cluster ${name} already exists: choose another name`);
    try {
      if (await api.clusters.get(name)) throw taken();
      const argoSecret = await api.secrets.get(
        ARGOCD_NAMESPACE,
        argoSecretName(name),
      );
      if (
        argoSecret &&
        argoSecretManager(argoSecret.metadata).kind !== 'infrared'
      ) {
        throw new ConflictError(
          `${describeArgoSecretManager(
            argoSecret.metadata,
          )}: Argo CD already knows a cluster named ${name}, and Infrared never takes over a Secret it did not make; choose another name, or remove that Secret first`,
        );
      }
    } catch (e) {
      if (e instanceof ConflictError) throw e;
      throw fromKubeError(e);
    }

    let secret: SecretObject | undefined;
    if (request.kubeconfig !== undefined) {
      try {
        secret = await api.secrets.create(
          kubeconfigSecret({
            clusterName: name,
            kubeconfig: request.kubeconfig,
          }),
        );
      } catch (e) {
        if (isAlreadyExists(e)) {
          throw new ConflictError(
            `Secret ${INFRARED_NAMESPACE}/${kubeconfigSecretName(
              name,
            )} already exists without a Cluster: remove it, or create the Cluster with kubectl referencing it`,
          );
        }
        throw fromKubeError(e);
      }
    }

    let created;
    try {
      created = await api.clusters.create(clusterForRequest(request));
    } catch (e) {
      if (secret) {
        await api.secrets
          .delete(INFRARED_NAMESPACE, secret.metadata.name, {
            uid: secret.metadata.uid,
          })
          .catch(err =>
            logger.warn(
              `infrared: could not remove Secret ${
                secret!.metadata.name
              } after the Cluster was refused: ${err.message}`,
            ),
          );
      }
      if (isAlreadyExists(e)) throw taken();
      throw fromKubeError(e);
    }

    if (secret) {
      try {
        await api.secrets.patchMetadata(
          INFRARED_NAMESPACE,
          secret.metadata.name,
          {
            labels: dependentLabels(name),
            ownerReferences: [controllerReferenceTo(created)],
          },
          secret.metadata.resourceVersion,
        );
      } catch (e) {
        // The reconciler adds it on its next pass.
        logger.warn(
          `infrared: owner reference on Secret ${
            secret.metadata.name
          } not set yet: ${(e as Error).message}`,
        );
      }
    }
    logger.info(`infrared: registered cluster ${name}`);
    this.options.onChange?.(name);
    return clusterView(created);
  }

  /** Removes a workload Cluster; the garbage collector removes its Secrets (owner references). */
  async remove(name: string): Promise<void> {
    const { api, managementCluster, logger } = this.options;
    let cluster;
    try {
      cluster = await api.clusters.get(name);
    } catch (e) {
      throw fromKubeError(e);
    }
    if (!cluster) throw new NotFoundError(`cluster ${name} does not exist`);
    if (isManagementCluster(cluster, managementCluster)) {
      throw new ConflictError(
        `cluster ${name} is the management cluster: the management cluster cannot be removed`,
      );
    }
    try {
      await api.clusters.delete(name, { uid: cluster.metadata.uid });
    } catch (e) {
      if (isNotFound(e)) {
        throw new NotFoundError(`cluster ${name} does not exist`);
      }
      throw fromKubeError(e);
    }
    logger.info(`infrared: removed cluster ${name}`);
  }
}

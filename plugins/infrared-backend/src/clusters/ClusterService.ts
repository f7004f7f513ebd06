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
  type ClusterResource,
  type ClusterView,
  type RegisterClusterRequest,
  type SecretObject,
  validateClusterName,
} from '@infrared-clusters/plugin-infrared-common';
import { controllerReferenceTo } from '../kube/ownerReference';
import {
  isAlreadyExists,
  isNotFound,
  KeyedLock,
  type ManagementApi,
} from '@infrared-clusters/infrared-kube';
import { stampAccepted } from './accepted';
import { fromKubeError } from './errors';
import type { ClusterListCache } from './listCache';
import { dependentLabels, isManagementCluster } from './plan';
import {
  checkServerFree,
  kubeconfigServersReader,
  kubeconfigVersion,
  requestedServer,
} from './serverConflict';
import { ServerIndex } from './serverIndex';

export interface ClusterServiceOptions {
  api: ManagementApi;
  managementCluster: string;
  logger: LoggerService;
  /** Called after a write, so reconciliation starts at once. */
  onChange?: (clusterName: string) => void;
  /** Called after a Cluster was deleted. */
  onRemoved?: (clusterName: string) => void;
  /** The Clusters a watch keeps current, so a list sends no LIST (live until it has synced). */
  listCache?: ClusterListCache;
  /** Child clusters the registrar registered, listed beside the Clusters. */
  listDiscovered?: () => Promise<DiscoveredClusterInput[]>;
}

const nameTaken = (name: string) =>
  new ConflictError(`cluster ${name} already exists: choose another name`);

const NONE_DISCOVERED: DiscoveredClusterInput[] = [];

/** Registration, listing and removal of Clusters; the REST API's only way to Kubernetes. */
export class ClusterService {
  private readonly serverLock = new KeyedLock();
  /** The last list, with the two lists it was made from. */
  private listed?: {
    clusters: ClusterView[];
    discovered: DiscoveredClusterInput[];
    views: ClusterView[];
  };
  private readonly servers: ServerIndex;

  constructor(private readonly options: ClusterServiceOptions) {
    this.servers = new ServerIndex(kubeconfigServersReader(options.api));
  }

  /**
   * Every Cluster and registrar child, by name. The same array while the list cache and the
   * children are unchanged, so GET /v1/clusters keeps its sorted pages (issue 25: a new array per
   * request sorted 10,000 views again for every page of 100). Read-only.
   */
  async list(): Promise<ClusterView[]> {
    try {
      const cached = this.options.listCache?.list();
      const [clusters, discovered] = await Promise.all([
        cached ??
          this.options.api.clusters.list().then(l => l.map(clusterView)),
        this.options.listDiscovered?.() ?? NONE_DISCOVERED,
      ]);
      const kept = this.listed;
      if (kept?.clusters === clusters && kept.discovered === discovered) {
        return kept.views;
      }
      const views = [
        ...clusters,
        ...discovered.map(discoveredClusterView),
      ].sort((a, b) => a.name.localeCompare(b.name));
      this.listed = cached ? { clusters, discovered, views } : undefined;
      return views;
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
   * Nothing is written when the name is taken, or when an existing Cluster or registrar child
   * has the server (the existing one keeps it: Argo CD keys clusters by server).
   */
  register(request: RegisterClusterRequest): Promise<ClusterView> {
    // one registration of a server at a time in this process: the check, then the create
    const server = requestedServer(request);
    return server
      ? this.serverLock.run(server, () => this.registerChecked(request, server))
      : this.registerChecked(request, server);
  }

  private async registerChecked(
    request: RegisterClusterRequest,
    server: string | undefined,
  ): Promise<ClusterView> {
    const name = request.name;
    // both read only: asked together, one round trip instead of two; the name's refusal first
    const [nameFree, serverFree] = await Promise.allSettled([
      this.checkNameFree(name),
      checkServerFree(this.options.api, request, server, this.servers, () =>
        this.options.listCache?.resources(),
      ),
    ]);
    if (nameFree.status === 'rejected') throw nameFree.reason;
    if (serverFree.status === 'rejected') {
      const e = serverFree.reason;
      throw e instanceof ConflictError ? e : fromKubeError(e);
    }
    const secret =
      request.kubeconfig === undefined
        ? undefined
        : await this.createKubeconfigSecret(name, request.kubeconfig);
    const created = await this.createCluster(request, secret);
    this.options.listCache?.created(created);
    this.knowKubeconfigServer(request, created, secret, server);
    if (secret) await this.adoptKubeconfigSecret(secret, created);
    this.options.logger.info(`infrared: registered cluster ${name}`);
    this.options.onChange?.(name);
    return clusterView(created);
  }

  /** The server index learns the new Cluster's kubeconfig server without reading it back. */
  private knowKubeconfigServer(
    request: RegisterClusterRequest,
    created: ClusterResource,
    secret: SecretObject | undefined,
    server: string | undefined,
  ): void {
    const ref = created.spec.connection?.kubeconfigSecretRef;
    // with spec.server, the server named is not the kubeconfig's
    if (!secret || !ref || !server || request.server?.trim()) return;
    this.servers.known(created, {
      // a copy: a slice of the request's kubeconfig text would keep the text alive
      servers: [structuredClone(server)],
      from: kubeconfigVersion(secret, ref.key),
    });
  }

  /** Refuses a name a Cluster has, or that another's Argo CD Secret holds. */
  private async checkNameFree(name: string): Promise<void> {
    const { api } = this.options;
    try {
      const [cluster, argoSecret] = await Promise.all([
        api.clusters.get(name),
        api.secrets.get(ARGOCD_NAMESPACE, argoSecretName(name)),
      ]);
      if (cluster) throw nameTaken(name);
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
  }

  private async createKubeconfigSecret(
    name: string,
    kubeconfig: string,
  ): Promise<SecretObject> {
    try {
      return await this.options.api.secrets.create(
        kubeconfigSecret({ clusterName: name, kubeconfig }),
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

  /** Creates the Cluster; when that is refused, removes the Secret made for it. */
  private async createCluster(
    request: RegisterClusterRequest,
    secret: SecretObject | undefined,
  ): Promise<ClusterResource> {
    const { api, logger } = this.options;
    try {
      // stamped: other replicas' passes leave it to this one's fast path (accepted.ts)
      return await api.clusters.create(
        stampAccepted(clusterForRequest(request), new Date()),
      );
    } catch (e) {
      if (secret) {
        await api.secrets
          .delete(INFRARED_NAMESPACE, secret.metadata.name, {
            uid: secret.metadata.uid,
          })
          .catch(err =>
            logger.warn(
              `infrared: could not remove Secret ${secret.metadata.name} after the Cluster was refused: ${err.message}`,
            ),
          );
      }
      if (isAlreadyExists(e)) throw nameTaken(request.name);
      throw fromKubeError(e);
    }
  }

  /** Gives the kubeconfig Secret its owner and labels at once; else the reconciler's next pass does. */
  private async adoptKubeconfigSecret(
    secret: SecretObject,
    cluster: ClusterResource,
  ): Promise<void> {
    try {
      await this.options.api.secrets.patchMetadata(
        INFRARED_NAMESPACE,
        secret.metadata.name,
        {
          labels: dependentLabels(cluster.metadata.name),
          ownerReferences: [controllerReferenceTo(cluster)],
        },
        secret.metadata.resourceVersion,
      );
    } catch (e) {
      this.options.logger.warn(
        `infrared: owner reference on Secret ${
          secret.metadata.name
        } not set yet: ${(e as Error).message}`,
      );
    }
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
    this.options.listCache?.removed(name);
    logger.info(`infrared: removed cluster ${name}`);
    this.options.onRemoved?.(name);
  }
}

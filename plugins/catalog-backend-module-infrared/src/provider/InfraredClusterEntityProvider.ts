import type {
  LoggerService,
  SchedulerServiceTaskRunner,
} from '@backstage/backend-plugin-api';
import type { Entity } from '@backstage/catalog-model';
import type {
  DeferredEntity,
  EntityProvider,
  EntityProviderConnection,
} from '@backstage/plugin-catalog-node';
import type {
  ClusterResource,
  SecretObject,
} from '@infrared-clusters/plugin-infrared-common';
import { isInfraredClusterEventPayload } from '@infrared-clusters/plugin-infrared-node';
import { KeyedLock } from '@infrared-clusters/infrared-kube';
import {
  listDiscoveredClusters,
  type DiscoveredCluster,
  type DiscoveredClustersOptions,
} from '@infrared-clusters/infrared-registrar';
import {
  childClusterEntity,
  clusterEntity,
  clusterEntityProblem,
  clusterEntityRef,
  INFRARED_PROVIDER_NAME,
  type ClusterEndpoint,
  type ClusterEntityOptions,
} from '../entities';
import { EndpointMemo } from './endpointMemo';
import {
  readAllClusters,
  readCluster,
  type ClusterRead,
  type ProviderApi,
} from './reads';

/** Clusters turned into entities between two turns of the event loop. */
const BUILD_SLICE = 200;

const nextTurn = () => new Promise<void>(resolve => setImmediate(resolve));

/**
 * Options of {@link InfraredClusterEntityProvider}.
 *
 * @public
 */
export interface InfraredClusterEntityProviderOptions {
  api: ProviderApi;
  /** Where an inCluster Cluster (the management cluster) is reached. */
  management?: ClusterEndpoint;
  entity: ClusterEntityOptions;
  logger: LoggerService;
  /** Runs the full mutation (the catalog's scheduler, `scope: 'global'`). */
  taskRunner: SchedulerServiceTaskRunner;
  /**
   * Where the registrar's child-cluster Secrets are (`infrared.registrar`), when it runs: each
   * child is a Resource too, marked as a child. A child named as a Cluster is left out.
   */
  discovered?: DiscoveredClustersOptions;
}

/**
 * What one mutation gave the catalog.
 *
 * @public
 */
export interface MutationSummary {
  type: 'full' | 'delta';
  added: number;
  removed: number;
  /** Clusters that could not be an entity (their name), left out. */
  skipped: number;
  /** Reading the management cluster and building the entities. */
  readMs: number;
  /** The whole mutation: `readMs` plus the catalog's `applyMutation`. */
  durationMs: number;
}

/**
 * Each Cluster of the management cluster as a `Resource` of type `kubernetes-cluster`. A full
 * mutation on the scheduler gives the catalog every Cluster (and so removes the entities of the
 * Clusters that are gone); a delta mutation gives it one Cluster after an API write. Both run
 * one at a time in this process, so a full mutation that read before a write never lands after
 * that write's delta.
 *
 * @public
 */
export class InfraredClusterEntityProvider implements EntityProvider {
  private connection?: EntityProviderConnection;
  private readonly lock = new KeyedLock();
  private readonly endpoints: EndpointMemo;

  constructor(private readonly options: InfraredClusterEntityProviderOptions) {
    this.endpoints = new EndpointMemo(options.management);
  }

  getProviderName(): string {
    return INFRARED_PROVIDER_NAME;
  }

  async connect(connection: EntityProviderConnection): Promise<void> {
    this.connection = connection;
    await this.options.taskRunner.run({
      id: `${INFRARED_PROVIDER_NAME}:full-mutation`,
      fn: async () => {
        await this.fullMutation().catch(e =>
          this.options.logger.warn(
            `infrared: catalog full mutation failed: ${(e as Error).message}`,
          ),
        );
      },
    });
  }

  /** Every Cluster to the catalog: entities of Clusters no longer listed are removed. */
  async fullMutation(): Promise<MutationSummary> {
    const connection = this.connected();
    return this.lock.run('mutation', async () => {
      const started = Date.now();
      this.endpoints.startRound();
      // a registered Cluster's endpoint is in its Argo CD Secret: its kubeconfig is not read
      const hasEndpoint = (
        cluster: ClusterResource,
        argoSecret?: SecretObject,
      ) => !!this.endpoints.endpoint(cluster, undefined, argoSecret);
      const [reads, children] = await Promise.all([
        readAllClusters(this.options.api, undefined, hasEndpoint),
        this.children(),
      ]);
      const { entities, skipped } = await this.toEntities(reads, children);
      this.endpoints.endRound();
      const readMs = Date.now() - started;
      await connection.applyMutation({ type: 'full', entities });
      const summary: MutationSummary = {
        type: 'full',
        added: entities.length,
        removed: 0,
        skipped,
        readMs,
        durationMs: Date.now() - started,
      };
      this.report(summary);
      return summary;
    });
  }

  /** One Cluster to the catalog after a write: its entity, or its removal when it is gone. */
  async deltaMutation(
    clusterName: string,
    why: string,
  ): Promise<MutationSummary> {
    const connection = this.connected();
    return this.lock.run('mutation', async () => {
      const started = Date.now();
      const read = await readCluster(this.options.api, clusterName);
      // a name no Cluster has may be a registrar child's
      const children = read
        ? []
        : (await this.children()).filter(c => c.name === clusterName);
      const { entities, skipped } = await this.toEntities(
        read ? [read] : [],
        children,
      );
      const removed =
        entities.length || skipped
          ? []
          : [{ entityRef: clusterEntityRef(clusterName) }];
      const readMs = Date.now() - started;
      await connection.applyMutation({
        type: 'delta',
        added: entities,
        removed,
      });
      const summary: MutationSummary = {
        type: 'delta',
        added: entities.length,
        removed: removed.length,
        skipped,
        readMs,
        durationMs: Date.now() - started,
      };
      this.report(summary, `cluster ${clusterName} ${why}`);
      return summary;
    });
  }

  /**
   * An event of the infrared backend (`INFRARED_CLUSTER_EVENTS_TOPIC`): a delta mutation for its
   * Cluster. Before the catalog connected, nothing: the first full mutation has it.
   */
  async onClusterEvent(payload: unknown): Promise<void> {
    if (!this.connection || !isInfraredClusterEventPayload(payload)) return;
    try {
      await this.deltaMutation(payload.cluster, payload.change);
    } catch (e) {
      this.options.logger.warn(
        `infrared: catalog delta mutation for cluster ${
          payload.cluster
        } failed (the next full mutation has it): ${(e as Error).message}`,
      );
    }
  }

  private connected(): EntityProviderConnection {
    if (!this.connection) {
      throw new Error(
        `${INFRARED_PROVIDER_NAME} is not connected to the catalog`,
      );
    }
    return this.connection;
  }

  /** The registrar's children, when it runs; none otherwise. */
  private async children(): Promise<DiscoveredCluster[]> {
    const { discovered } = this.options;
    if (!discovered) return [];
    return listDiscoveredClusters(this.options.api.secrets, discovered);
  }

  /**
   * The entities of the reads and children. Every BUILD_SLICE Clusters it lets the event loop run:
   * a kubeconfig parse takes ~0.4 ms, so the first full mutation at 10,000 Clusters would hold
   * this backend process (the Infrared API and its reconcilers included) for seconds.
   */
  private async toEntities(
    reads: ClusterRead[],
    children: DiscoveredCluster[] = [],
  ): Promise<{
    entities: DeferredEntity[];
    skipped: number;
  }> {
    const entities: DeferredEntity[] = [];
    let skipped = 0;
    const taken = new Set(reads.map(r => r.cluster.metadata.name));
    for (const child of children) {
      const problem = clusterEntityProblem({ metadata: { name: child.name } });
      if (problem || taken.has(child.name)) {
        skipped++;
        this.options.logger.warn(
          `infrared: registrar child ${child.name} has no catalog entity: ${
            problem ?? 'a Cluster has its name'
          }`,
        );
        continue;
      }
      taken.add(child.name);
      entities.push({
        entity: childClusterEntity(child, this.options.entity),
        locationKey: `${INFRARED_PROVIDER_NAME}:${child.name}`,
      });
    }
    for (const [i, read] of reads.entries()) {
      const { cluster, kubeconfigSecret, argoSecret } = read;
      if (i > 0 && i % BUILD_SLICE === 0) await nextTurn();
      const problem = clusterEntityProblem(cluster);
      if (problem) {
        skipped++;
        this.options.logger.warn(`infrared: ${problem}`);
        continue;
      }
      const endpoint = this.endpoints.endpoint(
        cluster,
        kubeconfigSecret,
        argoSecret,
      );
      const entity: Entity = clusterEntity(
        cluster,
        endpoint,
        this.options.entity,
      );
      entities.push({
        entity,
        locationKey: `${INFRARED_PROVIDER_NAME}:${cluster.metadata.name}`,
      });
    }
    return { entities, skipped };
  }

  private report(summary: MutationSummary, what?: string): void {
    this.options.logger.info(
      `infrared: catalog ${summary.type} mutation${
        what ? ` for ${what}` : ''
      }: ${summary.added} added, ${summary.removed} removed, ${
        summary.skipped
      } skipped in ${summary.durationMs} ms`,
    );
  }
}

/**
 * The plugin's features wired to the services, one function each, in the order the plugin's init
 * calls them: the gitops publisher, the clusters, placement and provisioning. Each takes what the
 * init resolved (config, logger, the gated scheduler, the management cluster's access).
 */
import type { EventsService } from '@backstage/plugin-events-node';
import type {
  LifecycleService,
  LoggerService,
  RootConfigService,
  SchedulerService,
} from '@backstage/backend-plugin-api';
import {
  INFRARED_CLUSTER_EVENTS_TOPIC,
  type GitopsPublisher,
  type GitopsPublisherFactory,
  type InfraredClusterEventPayload,
} from '@infrared-clusters/plugin-infrared-node';
import {
  KubePlacementApi,
  KubeProvisioningApi,
} from '@infrared-clusters/infrared-kube';
import {
  ClusterService,
  CLUSTERS_RECONCILE_TASK_ID,
  createClusters,
  startClusterWatches,
} from './clusters';
import { findRepoRoot, readManagementClusterConfig } from './config';
import { createGitopsPublisher } from './gitops';
import type { startInstallationGuard } from './installation';
import type { InfraredKubeService } from './kube';
import { createPlacement, PlacementService } from './placement';
import { createProvisioning, ProvisioningService } from './provisioning';
import {
  discoveredClustersOptions,
  registerRegistrarTask,
  withRegistrarStatus,
} from './registrar';

/** What every feature is wired with: the init's services and the management cluster's access. */
export interface FeatureWiring {
  config: RootConfigService;
  logger: LoggerService;
  /** The scheduler gated by the installation Lease. */
  scheduler: SchedulerService;
  lifecycle: LifecycleService;
  management: NonNullable<InfraredKubeService['management']>;
  publisher: GitopsPublisher;
}

type Registrar = Awaited<ReturnType<typeof registerRegistrarTask>>;
type Installation = Awaited<ReturnType<typeof startInstallationGuard>>;

/** The features the API routes serve; none without a management cluster (they answer 503). */
export interface WiredFeatures {
  clusters?: ClusterService;
  placement?: PlacementService;
  provisioning?: ProvisioningService;
}

/**
 * Every feature: the gitops publisher (registration, placement and the registrar's children use
 * it), the registrar's task, then clusters, placement and provisioning when there is a management
 * cluster.
 */
export async function wireFeatures(opts: {
  config: RootConfigService;
  logger: LoggerService;
  scheduler: SchedulerService;
  lifecycle: LifecycleService;
  installation: Installation;
  kube: InfraredKubeService;
  events: EventsService;
  publisherFactory: GitopsPublisherFactory | undefined;
}): Promise<WiredFeatures> {
  const { config, logger, scheduler, lifecycle, installation } = opts;
  const management = opts.kube.management;
  const publisher =
    management && (await wirePublisher(config, logger, opts.publisherFactory));
  // no publish writes in the gitops repository once the backend has stopped
  if (publisher?.close) lifecycle.addShutdownHook(() => publisher.close!());
  const registrar = await registerRegistrarTask({
    config,
    logger,
    scheduler,
    client: management?.client,
    // stops the watches and releases the registrar's Lease on shutdown
    lifecycle,
    gate: installation,
    gitops: publisher &&
      management && {
        publisher,
        managementCluster: readManagementClusterConfig(config).name,
        secrets: management.api.secrets,
      },
  });
  if (!management || !publisher) {
    logger.warn(
      `infrared: ${opts.kube.unavailable}; cluster routes answer 503`,
    );
    return {};
  }
  const w: FeatureWiring = {
    config,
    logger,
    scheduler,
    lifecycle,
    management,
    publisher,
  };
  return {
    clusters: await wireClusters(w, registrar, opts.events),
    placement: await wirePlacement(w, installation),
    provisioning: await wireProvisioning(w),
  };
}

/** The gitops publisher a module set through the extension point, else the configured one. */
export async function wirePublisher(
  config: RootConfigService,
  logger: LoggerService,
  factory: GitopsPublisherFactory | undefined,
): Promise<GitopsPublisher> {
  return factory
    ? await factory({ config, logger })
    : createGitopsPublisher({ config, logger, rootDir: findRepoRoot() });
}

/**
 * The clusters' reconciler and service: discovered children with the registrar's last pass, and
 * each Cluster's change published on the events service.
 */
export function wireClusters(
  w: FeatureWiring,
  registrar: Registrar,
  events: EventsService,
): Promise<ClusterService> {
  const { config, logger, management } = w;
  // the REST list and the scheduled pass read these instead of LISTs (issue 25)
  const discovered = registrar ? discoveredClustersOptions(config) : undefined;
  const watches =
    management.client &&
    startClusterWatches({
      client: management.client,
      lifecycle: w.lifecycle,
      logger,
      discovered,
    });
  return createClusters({
    config,
    logger,
    scheduler: w.scheduler,
    api: management.api,
    prober: management.prober,
    publisher: w.publisher,
    watchedClusters: watches?.clusters,
    passWatches: watches,
    discovered,
    watchedDiscovered: watches?.discovered,
    lifecycle: w.lifecycle,
    // each child with the registrar's last pass
    passes: registrar && {
      apply: listed => withRegistrarStatus(listed, registrar.status),
      version: () => registrar.status.version,
    },
    onClusterChanged: (cluster, change) => {
      const eventPayload: InfraredClusterEventPayload = { cluster, change };
      events
        .publish({ topic: INFRARED_CLUSTER_EVENTS_TOPIC, eventPayload })
        .catch(e =>
          logger.warn(
            `infrared: could not publish ${change} of cluster ${cluster}: ${e.message}`,
          ),
        );
    },
  });
}

/** Placement and the release gate, when there is a placement API (a test's, else the client's). */
export async function wirePlacement(
  w: FeatureWiring,
  installation: Installation,
): Promise<PlacementService | undefined> {
  const { management } = w;
  const kube =
    management.placement ??
    (management.client && new KubePlacementApi(management.client));
  if (!kube) return undefined;
  return createPlacement({
    config: w.config,
    logger: w.logger,
    scheduler: w.scheduler,
    kube,
    clusters: management.api.clusters,
    publisher: w.publisher,
    // a change of an allowlist, a Product, a Cluster or a Release passes at once
    watchClient: management.client,
    lifecycle: w.lifecycle,
    installation,
  });
}

/** Provisioning, when there is a provisioning API (a test's, else the client's). */
export async function wireProvisioning(
  w: FeatureWiring,
): Promise<ProvisioningService | undefined> {
  const { management, scheduler } = w;
  const kube =
    management.provisioning ??
    (management.client && new KubeProvisioningApi(management.client));
  if (!kube) return undefined;
  return createProvisioning({
    config: w.config,
    logger: w.logger,
    scheduler,
    api: management.api,
    kube,
    rootDir: findRepoRoot(),
    // infrared.provisioning.watch: a Job's change passes at once
    watchClient: management.client,
    lifecycle: w.lifecycle,
    // a built cluster got its connection: registration starts at once
    onRegistered: () => {
      scheduler.triggerTask(CLUSTERS_RECONCILE_TASK_ID).catch(() => undefined);
    },
  });
}

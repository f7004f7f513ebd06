import {
  coreServices,
  createBackendPlugin,
} from '@backstage/backend-plugin-api';
import { eventsServiceRef } from '@backstage/plugin-events-node';
import { infraredPermissions } from '@infrared-clusters/plugin-infrared-common';
import {
  gitopsPublisherExtensionPoint,
  INFRARED_CLUSTER_EVENTS_TOPIC,
  type InfraredClusterEventPayload,
  type GitopsPublisher,
  type GitopsPublisherFactory,
} from '@infrared-clusters/plugin-infrared-node';
import {
  KubePlacementApi,
  KubeProvisioningApi,
} from '@infrared-clusters/infrared-kube';
import { createRouter } from './api/router';
import {
  ClusterService,
  CLUSTERS_RECONCILE_TASK_ID,
  createClusters,
  startWatchedClusters,
} from './clusters';
import { findRepoRoot, readManagementClusterConfig } from './config';
import { createGitopsPublisher } from './gitops';
import { gatedScheduler, startInstallationGuard } from './installation';
import { infraredKubeServiceRef } from './kube';
import { createPlacement, PlacementService } from './placement';
import { createProvisioning, ProvisioningService } from './provisioning';
import {
  discoveredClustersOptions,
  registerRegistrarTask,
  withRegistrarStatus,
} from './registrar';
import { scrubbingLogger } from './logging/scrubbingLogger';
import { schedulePermissionPolicyCheck } from './permissionPolicy';

export { CLUSTERS_RECONCILE_TASK_ID } from './clusters';
export { RELEASE_GATE_TASK_ID } from './placement';
export { PROVISIONING_TASK_ID } from './provisioning';

/**
 * The Infrared backend plugin: REST API under /api/infrared and the reconcilers.
 *
 * @public
 */
export const infraredPlugin = createBackendPlugin({
  pluginId: 'infrared',
  register(env) {
    let publisherFactory: GitopsPublisherFactory | undefined;
    env.registerExtensionPoint(gitopsPublisherExtensionPoint, {
      setPublisher(factory) {
        if (publisherFactory) {
          throw new Error('infrared: the gitops publisher was already set');
        }
        publisherFactory = factory;
      },
    });

    env.registerInit({
      deps: {
        config: coreServices.rootConfig,
        logger: coreServices.logger,
        httpRouter: coreServices.httpRouter,
        httpAuth: coreServices.httpAuth,
        permissions: coreServices.permissions,
        permissionsRegistry: coreServices.permissionsRegistry,
        auditor: coreServices.auditor,
        scheduler: coreServices.scheduler,
        lifecycle: coreServices.lifecycle,
        discovery: coreServices.discovery,
        instanceMetadata: coreServices.rootInstanceMetadata,
        kube: infraredKubeServiceRef,
        events: eventsServiceRef,
      },
      async init(deps) {
        const { config, httpRouter, kube } = deps;
        const logger = scrubbingLogger(deps.logger);
        deps.permissionsRegistry.addPermissions(infraredPermissions);

        // one installation per management cluster: the reconcilers pass and the write routes
        // write only while this installation holds the Lease infrared/infrared-installation
        const installation = await startInstallationGuard({
          config,
          logger,
          client: kube.management?.client,
          managementCluster: readManagementClusterConfig(config).name,
          lifecycle: deps.lifecycle,
        });
        const scheduler = gatedScheduler(deps.scheduler, installation, logger);
        // after start: a warning when Infrared's admin permissions are open to everyone
        schedulePermissionPolicyCheck({ ...deps, logger });

        // the gitops publisher: registration, placement, and the registrar's children
        let publisher: GitopsPublisher | undefined;
        if (kube.management) {
          publisher = publisherFactory
            ? await publisherFactory({ config, logger })
            : createGitopsPublisher({
                config,
                logger,
                rootDir: findRepoRoot(),
              });
        }
        const registrar = await registerRegistrarTask({
          config,
          logger,
          scheduler,
          client: kube.management?.client,
          // stops the watches and releases the registrar's Lease on shutdown
          lifecycle: deps.lifecycle,
          gate: installation,
          gitops: publisher &&
            kube.management && {
              publisher,
              managementCluster: readManagementClusterConfig(config).name,
              secrets: kube.management.api.secrets,
            },
        });

        let clusters: ClusterService | undefined;
        let placement: PlacementService | undefined;
        let provisioning: ProvisioningService | undefined;
        if (kube.management && publisher) {
          clusters = await createClusters({
            config,
            logger,
            scheduler,
            api: kube.management.api,
            prober: kube.management.prober,
            publisher,
            watchedClusters:
              kube.management.client &&
              startWatchedClusters({
                client: kube.management.client,
                lifecycle: deps.lifecycle,
                logger,
              }),
            discovered: registrar
              ? discoveredClustersOptions(config)
              : undefined,
            // each child with the registrar's last pass (issue 23.1)
            withPasses:
              registrar &&
              (listed => withRegistrarStatus(listed, registrar.status)),
            onClusterChanged: (cluster, change) => {
              const eventPayload: InfraredClusterEventPayload = {
                cluster,
                change,
              };
              deps.events
                .publish({ topic: INFRARED_CLUSTER_EVENTS_TOPIC, eventPayload })
                .catch(e =>
                  logger.warn(
                    `infrared: could not publish ${change} of cluster ${cluster}: ${e.message}`,
                  ),
                );
            },
          });
          const placementApi =
            kube.management.placement ??
            (kube.management.client &&
              new KubePlacementApi(kube.management.client));
          if (placementApi) {
            placement = await createPlacement({
              config,
              logger,
              scheduler,
              kube: placementApi,
              clusters: kube.management.api.clusters,
              publisher,
              // a change of an allowlist, a Product, a Cluster or a Release passes at once
              watchClient: kube.management.client,
              lifecycle: deps.lifecycle,
              installation,
            });
          }
          const provisioningApi =
            kube.management.provisioning ??
            (kube.management.client &&
              new KubeProvisioningApi(kube.management.client));
          if (provisioningApi) {
            provisioning = await createProvisioning({
              config,
              logger,
              scheduler,
              api: kube.management.api,
              kube: provisioningApi,
              rootDir: findRepoRoot(),
              // infrared.provisioning.watch: a Job's change passes at once
              watchClient: kube.management.client,
              lifecycle: deps.lifecycle,
              // a built cluster got its connection: registration starts at once
              onRegistered: () => {
                scheduler
                  .triggerTask(CLUSTERS_RECONCILE_TASK_ID)
                  .catch(() => undefined);
              },
            });
          }
        } else {
          logger.warn(
            `infrared: ${kube.unavailable}; cluster routes answer 503`,
          );
        }

        httpRouter.use(
          await createRouter({
            httpAuth: deps.httpAuth,
            permissions: deps.permissions,
            auditor: deps.auditor,
            logger,
            clusters,
            placement,
            provisioning,
            unavailable: kube.unavailable,
            // without a management cluster's client (none, or a test's fake API) nothing to say
            installation: kube.management?.client && installation,
          }),
        );
      },
    });
  },
});

import {
  coreServices,
  createBackendPlugin,
} from '@backstage/backend-plugin-api';
import { infraredPermissions } from '@internal/plugin-infrared-common';
import { createRouter } from './api/router';
import {
  ClusterReconciler,
  ClusterService,
  findRepoRoot,
  readClustersConfig,
  ReconcileTrigger,
} from './clusters';
import {
  createGitopsPublisher,
  gitopsPublisherExtensionPoint,
  type GitopsPublisherFactory,
} from './gitops';
import { infraredKubeServiceRef } from './kube';
import { listDiscoveredClusters } from '@internal/plugin-infrared-node';
import { discoveredClustersOptions, registerRegistrarTask } from './registrar';

/** The scheduled task that reconciles every Cluster. */
export const CLUSTERS_RECONCILE_TASK_ID = 'infrared-clusters-reconcile';

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
        kube: infraredKubeServiceRef,
      },
      async init(deps) {
        const { config, logger, httpRouter, scheduler, kube } = deps;
        deps.permissionsRegistry.addPermissions(infraredPermissions);
        const settings = readClustersConfig(config);

        const registrar = await registerRegistrarTask({
          config,
          logger,
          scheduler,
          client: kube.management?.client,
        });

        let clusters: ClusterService | undefined;
        if (kube.management) {
          const { api, prober } = kube.management;
          const publisher = publisherFactory
            ? await publisherFactory({ config, logger })
            : createGitopsPublisher({
                config,
                logger,
                rootDir: findRepoRoot(),
              });
          const reconciler = new ClusterReconciler({
            api,
            prober,
            publisher,
            managementCluster: settings.managementCluster,
            logger,
          });
          const trigger = new ReconcileTrigger(
            scheduler,
            CLUSTERS_RECONCILE_TASK_ID,
            logger,
          );
          const { secrets } = api;
          clusters = new ClusterService({
            api,
            managementCluster: settings.managementCluster,
            logger,
            listDiscovered: registrar
              ? () =>
                  listDiscoveredClusters(
                    secrets,
                    discoveredClustersOptions(config),
                  )
              : undefined,
            onChange: name => {
              trigger.request();
              reconciler
                .reconcileOne(name)
                .catch(e =>
                  logger.warn(
                    `infrared: reconciling cluster ${name} failed: ${e.message}`,
                  ),
                );
            },
          });
          await scheduler.scheduleTask({
            id: CLUSTERS_RECONCILE_TASK_ID,
            scope: 'global',
            frequency: settings.reconcileInterval,
            timeout: { minutes: 10 },
            fn: async signal => {
              const pass = await reconciler.reconcileAll(signal);
              logger.debug?.(
                `infrared: reconciled ${pass.clusters} clusters in ${pass.durationMs} ms with ${pass.requests} requests`,
              );
            },
          });
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
            unavailable: kube.unavailable,
          }),
        );
      },
    });
  },
});

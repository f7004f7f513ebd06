import {
  coreServices,
  createBackendPlugin,
} from '@backstage/backend-plugin-api';
import { eventsServiceRef } from '@backstage/plugin-events-node';
import { infraredPermissions } from '@infrared-clusters/plugin-infrared-common';
import {
  gitopsPublisherExtensionPoint,
  type GitopsPublisherFactory,
} from '@infrared-clusters/plugin-infrared-node';
import { createRouter } from './api/router';
import { readManagementClusterConfig } from './config';
import { gatedScheduler, startInstallationGuard } from './installation';
import { infraredKubeServiceRef } from './kube';
import { wireFeatures } from './wiring';
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

        const { clusters, placement, provisioning } = await wireFeatures({
          config,
          logger,
          scheduler,
          lifecycle: deps.lifecycle,
          installation,
          kube,
          events: deps.events,
          publisherFactory,
        });

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

import {
  coreServices,
  createBackendModule,
} from '@backstage/backend-plugin-api';
import { catalogProcessingExtensionPoint } from '@backstage/plugin-catalog-node';
import { eventsServiceRef } from '@backstage/plugin-events-node';
import {
  createManagementClient,
  KubePlacementApi,
  managementApi,
  readManagementClusterConfig,
} from '@infrared-clusters/infrared-kube';
import { INFRARED_CLUSTER_EVENTS_TOPIC } from '@infrared-clusters/plugin-infrared-node';
import { managementEndpoint } from './entities';
import {
  InfraredClusterEntityProvider,
  readDiscoveredConfig,
  readProviderConfig,
} from './provider';
import { ProductClusterProcessor, ProductClusters } from './relations';

/**
 * The catalog module of Infrared clusters: the entity provider of the Clusters' Resources (a full
 * mutation on the scheduler, a delta on each event of the infrared backend) and the processor of
 * the Products' `dependsOn` relations.
 *
 * @public
 */
export const catalogModuleInfrared = createBackendModule({
  pluginId: 'catalog',
  moduleId: 'infrared',
  register(env) {
    env.registerInit({
      deps: {
        catalog: catalogProcessingExtensionPoint,
        config: coreServices.rootConfig,
        logger: coreServices.logger,
        scheduler: coreServices.scheduler,
        events: eventsServiceRef,
      },
      async init({ catalog, config, logger, scheduler, events }) {
        const made = createManagementClient(config);
        if (!('client' in made)) {
          logger.warn(
            `infrared: no Clusters in the catalog: ${made.unavailable}`,
          );
          return;
        }
        const { client } = made;
        const settings = readProviderConfig(config);
        const provider = new InfraredClusterEntityProvider({
          api: managementApi(client),
          management: managementEndpoint(client),
          entity: settings,
          logger,
          taskRunner: scheduler.createScheduledTaskRunner(settings.schedule),
          discovered: readDiscoveredConfig(config),
        });
        catalog.addEntityProvider(provider);
        catalog.addProcessor(
          new ProductClusterProcessor(
            new ProductClusters({
              kube: new KubePlacementApi(client),
              managementCluster: readManagementClusterConfig(config).name,
            }),
          ),
        );
        await events.subscribe({
          id: 'infrared-clusters-entity-provider',
          topics: [INFRARED_CLUSTER_EVENTS_TOPIC],
          onEvent: ({ eventPayload }) => provider.onClusterEvent(eventPayload),
        });
      },
    });
  },
});

import {
  coreServices,
  createBackendModule,
} from '@backstage/backend-plugin-api';
import {
  kubernetesAuthStrategyExtensionPoint,
  kubernetesClusterSupplierExtensionPoint,
} from '@backstage/plugin-kubernetes-node';
import {
  createManagementClient,
  type KubeClient,
} from '@infrared-clusters/infrared-kube';
import { InfraredAuthStrategy } from './authStrategy';
import { startInfraredCaches, type InfraredCaches } from './caches';
import {
  INFRARED_AUTH_PROVIDER,
  RegisteredClusters,
} from './registeredClusters';
import { ProxyGate, readProxyOptions } from './proxyGate';
import { InfraredClustersSupplier } from './supplier';

/**
 * Options of {@link createInfraredKubernetesModule}.
 *
 * @public
 */
export interface InfraredKubernetesModuleOptions {
  /** The management cluster's client; default the one `infrared.managementCluster` names. */
  management?: KubeClient;
  /** Hands out the watched caches once started (tests and benches count their connections). */
  onCaches?: (caches: InfraredCaches) => void;
}

/**
 * The Kubernetes plugin's module for Infrared: a cluster supplier with every Registered Cluster,
 * the `infrared` auth strategy that gives each one's credential at request time, and the gate that
 * keeps the plugin's proxy off Infrared's clusters unless `infrared.kubernetes.proxy` opens it.
 *
 * @public
 */
export function createInfraredKubernetesModule(
  options: InfraredKubernetesModuleOptions = {},
) {
  return createBackendModule({
    pluginId: 'kubernetes',
    moduleId: 'infrared',
    register(env) {
      env.registerInit({
        deps: {
          config: coreServices.rootConfig,
          logger: coreServices.logger,
          lifecycle: coreServices.lifecycle,
          http: coreServices.httpRouter,
          suppliers: kubernetesClusterSupplierExtensionPoint,
          strategies: kubernetesAuthStrategyExtensionPoint,
        },
        async init({ config, logger, lifecycle, http, suppliers, strategies }) {
          let management = options.management;
          if (!management) {
            const made = createManagementClient(config);
            if (!('client' in made)) {
              logger.warn(
                `infrared: ${made.unavailable}; the Kubernetes plugin gets no Infrared clusters`,
              );
              return;
            }
            management = made.client;
          }
          const caches = startInfraredCaches(management, logger);
          lifecycle.addShutdownHook(() => caches.stop());
          options.onCaches?.(caches);
          const registered = new RegisteredClusters({
            clusters: caches.clusters,
            secrets: caches.secrets,
            logger,
            skipMetricsLookup: config.getOptionalBoolean(
              'infrared.kubernetes.skipMetricsLookup',
            ),
          });
          const gate = new ProxyGate(
            readProxyOptions(config),
            {
              has: name => caches.clusters.get(name) !== undefined,
              supplied: async () =>
                (await registered.details()).map(d => d.name),
            },
            logger,
          );
          // On the Kubernetes plugin's own router, ahead of its proxy: a module's init runs before
          // its plugin's, and the plugin adds its routes to the same router after this.
          http.use(gate.middleware());
          strategies.addAuthStrategy(
            INFRARED_AUTH_PROVIDER,
            new InfraredAuthStrategy(registered, gate),
          );
          suppliers.addClusterSupplier(
            async ({ getDefault }) =>
              new InfraredClustersSupplier(
                registered,
                () => caches.ready(),
                await getDefault(),
              ),
          );
        },
      });
    },
  });
}

/**
 * The module with its defaults: the management cluster `infrared.managementCluster` names.
 *
 * @public
 */
export const kubernetesModuleInfrared = createInfraredKubernetesModule();

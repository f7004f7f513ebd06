import {
  coreServices,
  createServiceFactory,
  createServiceRef,
  type LoggerService,
  type RootConfigService,
} from '@backstage/backend-plugin-api';
import {
  createManagementClient,
  KubeClient,
  KubeClusterProber,
  managementApi,
  RequestCounter,
  type ClusterProber,
  type ManagementApi,
  type PlacementKubeApi,
  type ProvisioningKubeApi,
} from '@infrared-clusters/infrared-kube';

// The one place that decides where the management cluster is: infrared-kube's, shared with modules.
export { createManagementClient };

/** The backend's access to the management cluster, or why there is none. */
export interface InfraredKubeService {
  management?: {
    api: ManagementApi;
    prober: ClusterProber;
    /** Requests sent to workload clusters by probes. */
    probeCounter: RequestCounter;
    /** The management API server's URL (for logs). */
    server: string;
    /** The client itself, for capabilities with their own API (the registrar); tests may omit it. */
    client?: KubeClient;
    /** Organizations, Products, Releases and Argo CD's kinds; default through `client`. */
    placement?: PlacementKubeApi;
    /** OpenTofu Jobs, their Pods and logs; default through `client`. */
    provisioning?: ProvisioningKubeApi;
  };
  /** Why there is no management cluster access, when there is none. */
  unavailable?: string;
}

/** Builds the management cluster access from config (see `createManagementClient`). */
export function createInfraredKube(
  config: RootConfigService,
  logger: LoggerService,
): InfraredKubeService {
  const made = createManagementClient(config);
  if (!('client' in made)) return { unavailable: made.unavailable };
  const { client } = made;
  const probeCounter = new RequestCounter();
  logger.info(`infrared: management cluster API server ${client.server}`);
  return {
    management: {
      api: managementApi(client),
      prober: new KubeClusterProber(client, { counter: probeCounter }),
      probeCounter,
      server: client.server,
      client,
    },
  };
}

/** The plugin's management cluster access; tests replace it with `infraredKubeServiceFactory`. */
export const infraredKubeServiceRef = createServiceRef<InfraredKubeService>({
  id: 'infrared.kube',
  scope: 'plugin',
  defaultFactory: async service =>
    createServiceFactory({
      service,
      deps: { config: coreServices.rootConfig, logger: coreServices.logger },
      factory: ({ config, logger }) => createInfraredKube(config, logger),
    }),
});

/** A factory for `infraredKubeServiceRef` that hands out a given service (tests, benchmarks). */
export function infraredKubeServiceFactory(kube: InfraredKubeService) {
  return createServiceFactory({
    service: infraredKubeServiceRef,
    deps: {},
    factory: () => kube,
  });
}

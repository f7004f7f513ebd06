import {
  coreServices,
  createServiceFactory,
  createServiceRef,
  type LoggerService,
  type RootConfigService,
} from '@backstage/backend-plugin-api';
import {
  isInCluster,
  KubeClient,
  KubeClusterProber,
  kubeConfigFromFile,
  kubeConfigInCluster,
  managementApi,
  RequestCounter,
  type ClusterProber,
  type ManagementApi,
  type PlacementKubeApi,
  type ProvisioningKubeApi,
} from '@infrared-clusters/plugin-infrared-node';
import { readManagementClusterConfig } from '../config';

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

/**
 * The management cluster's client from config: `infrared.managementCluster.kubeconfigPath` when set
 * (`npm start` points it at the local control plane), else the pod's service account; or why there
 * is none. The one place the backend decides where the management cluster is.
 */
export function createManagementClient(
  config: RootConfigService,
): { client: KubeClient } | { unavailable: string } {
  const { kubeconfigPath } = readManagementClusterConfig(config);
  try {
    if (kubeconfigPath) {
      return { client: new KubeClient(kubeConfigFromFile(kubeconfigPath)) };
    }
    if (isInCluster()) {
      return { client: new KubeClient(kubeConfigInCluster()) };
    }
  } catch (e) {
    const where = kubeconfigPath ?? 'the in-cluster service account';
    return {
      unavailable: `the management cluster's kubeconfig (${where}) cannot be loaded: ${
        (e as Error).message
      }`,
    };
  }
  return {
    unavailable:
      'no management cluster is configured: set infrared.managementCluster.kubeconfigPath, or run the backend in a pod of the management cluster',
  };
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

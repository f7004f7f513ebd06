/**
 * The Kubernetes plugin's backend module for Infrared clusters: every Registered Cluster as a
 * cluster of the Kubernetes plugin, with its credential from its kubeconfig Secret at request time.
 *
 * @packageDocumentation
 */
export {
  kubernetesModuleInfrared as default,
  createInfraredKubernetesModule,
  type InfraredKubernetesModuleOptions,
} from './module';
export type { InfraredCaches } from './caches';
export {
  INFRARED_AUTH_PROVIDER,
  INFRARED_CLUSTER_METADATA,
} from './registeredClusters';

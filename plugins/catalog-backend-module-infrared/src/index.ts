/**
 * Catalog backend module of Infrared clusters: each Cluster as a `Resource` of type
 * `kubernetes-cluster`, and the `dependsOn` relations of the Products placed on it.
 *
 * @packageDocumentation
 */
export { catalogModuleInfrared as default } from './module';
export {
  CHILD_CLUSTER_TYPE,
  childClusterEntity,
  CLUSTER_ANNOTATIONS,
  CLUSTER_OBJECTS_SELECTOR,
  clusterEntity,
  clusterEntityRef,
  HIDE_FROM_CLUSTER_TAB_LABEL,
  INFRARED_KUBERNETES_AUTH_PROVIDER,
  INFRARED_PROVIDER_NAME,
  KUBERNETES_CLUSTER_TYPE,
  type ClusterEndpoint,
  type ClusterEntityOptions,
} from './entities';
export {
  InfraredClusterEntityProvider,
  type InfraredClusterEntityProviderOptions,
  type MutationSummary,
  type ProviderApi,
} from './provider';
export {
  ProductClusterProcessor,
  ProductClusters,
  type ProductClustersOptions,
} from './relations';

export {
  CLUSTER_ANNOTATIONS,
  CLUSTER_ENTITY_NAMESPACE,
  clusterEntity,
  clusterEntityProblem,
  clusterEntityRef,
  INFRARED_KUBERNETES_AUTH_PROVIDER,
  INFRARED_PROVIDER_NAME,
  KUBERNETES_CLUSTER_TYPE,
  type ClusterEntityOptions,
} from './clusterEntity';
export {
  clusterEndpoint,
  managementEndpoint,
  type ClusterEndpoint,
} from './endpoint';

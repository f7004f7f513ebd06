export {
  ANNOTATION_KUBERNETES_CLUSTER,
  CLUSTER_ANNOTATIONS,
  CLUSTER_OBJECTS_SELECTOR,
  HIDE_FROM_CLUSTER_TAB_LABEL,
  panelLinks,
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
export { CHILD_CLUSTER_TYPE, childClusterEntity } from './childEntity';

export {
  InfraredClusterEntityProvider,
  type InfraredClusterEntityProviderOptions,
  type MutationSummary,
} from './InfraredClusterEntityProvider';
export {
  readAllClusters,
  readCluster,
  type ClusterRead,
  type ProviderApi,
} from './reads';
export { readProviderConfig, type ProviderConfig } from './config';

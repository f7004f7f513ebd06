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
export {
  readDiscoveredConfig,
  readProviderConfig,
  type ProviderConfig,
} from './config';

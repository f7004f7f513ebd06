export {
  sortClusters,
  type SortDirection,
  type SortKey,
} from '@infrared-clusters/plugin-infrared-common';

export {
  filterClusters,
  STATUS_FILTERS,
  type StatusFilter,
} from '@infrared-clusters/plugin-infrared-common';

export { ProductClusterProcessor } from './ProductClusterProcessor';
export {
  ProductClusters,
  productClusterNames,
  type ProductClustersOptions,
} from './productClusters';

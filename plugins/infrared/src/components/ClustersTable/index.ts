export { ClustersTable } from './ClustersTable';

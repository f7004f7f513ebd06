export { ClustersToolbar } from './ClustersToolbar';

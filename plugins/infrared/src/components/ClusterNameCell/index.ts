export { ClusterNameCell } from './ClusterNameCell';

export { ClusterPanel } from './ClusterPanel';

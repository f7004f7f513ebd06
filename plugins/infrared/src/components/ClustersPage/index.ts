export { ClustersPage, DEFAULT_POLL_INTERVAL_MS } from './ClustersPage';
export type { ClustersPageProps } from './ClustersPage';

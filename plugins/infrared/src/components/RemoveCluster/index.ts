export { RemoveClusterSection } from './RemoveClusterSection';
export { RemoveClusterDialog } from './RemoveClusterDialog';

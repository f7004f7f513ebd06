export { RegisterClusterButton } from './RegisterClusterButton';
export { RegisterClusterDialog } from './RegisterClusterDialog';

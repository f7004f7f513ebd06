export { PermissionButton } from './PermissionButton';

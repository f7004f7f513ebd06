export { permissionModuleInfraredPlatformAdmins } from './module';
export {
  createInfraredPlatformAdminDecision,
  type InfraredPlatformAdminDecision,
} from './platformAdminPolicy';
export { schedulePermissionPolicyCheck } from './startupCheck';

/**
 * Backend plugin of Infrared clusters.
 *
 * @packageDocumentation
 */
export { infraredPlugin as default } from './plugin';
export {
  createInfraredPlatformAdminDecision,
  permissionModuleInfraredPlatformAdmins,
  type InfraredPlatformAdminDecision,
} from './permissionPolicy';

/**
 * The portal's permission policy is Infrared's platform-admin module, the one adopters install
 * (plugins/infrared-backend/src/permissionPolicy). Kept as this module's default export for the
 * tests under src/permissions that start a backend with it.
 */
export { permissionModuleInfraredPlatformAdmins as default } from '@infrared-clusters/plugin-infrared-backend';

/**
 * Scaffolder actions of Infrared clusters: register, build and wait for a cluster through the
 * Infrared REST API, as the user running the template.
 *
 * @packageDocumentation
 */
export { scaffolderModuleInfrared as default } from './module';
export { createRegisterClusterAction } from './actions/register';
export { createBuildClusterAction } from './actions/build';
export { createWaitForClusterAction } from './actions/wait';
export { infraredApiFor } from './infraredApi';
export type { ClusterActionsApi, InfraredApiFor } from './infraredApi';
export type {
  RegisterClusterActionInput,
  RegisterClusterActionOutput,
  BuildClusterActionInput,
  BuildClusterActionOutput,
  WaitForClusterActionInput,
  WaitForClusterActionOutput,
} from './actions/types';

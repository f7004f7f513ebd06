export {
  registerRegistrarTask,
  REGISTRAR_TASK_ID,
  type RegisterRegistrarTaskOptions,
  type RegistrarTask,
} from './task';
export {
  readRegistrarConfig,
  discoveredClustersOptions,
  REGISTRAR_CONFIG_KEY,
  type RegistrarSettings,
} from './config';
export {
  RegistrarStatus,
  withRegistrarStatus,
  type RegistrarChildStatus,
} from './status';

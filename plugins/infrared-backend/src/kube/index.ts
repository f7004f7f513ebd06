export {
  createInfraredKube,
  createManagementClient,
  infraredKubeServiceRef,
  infraredKubeServiceFactory,
  type InfraredKubeService,
} from './service';

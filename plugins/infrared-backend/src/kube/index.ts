export {
  createInfraredKube,
  infraredKubeServiceRef,
  infraredKubeServiceFactory,
  type InfraredKubeService,
} from './service';

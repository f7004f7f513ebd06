import {
  createExtensionPoint,
  LoggerService,
  RootConfigService,
} from '@backstage/backend-plugin-api';
import { GitopsPublisher } from './types';

/** Builds the publisher once the plugin's services are available. */
export type GitopsPublisherFactory = (deps: {
  config: RootConfigService;
  logger: LoggerService;
}) => GitopsPublisher | Promise<GitopsPublisher>;

/** Lets another backend module replace the gitops publisher chosen by `infrared.gitops.type`. */
export interface GitopsPublisherExtensionPoint {
  setPublisher(factory: GitopsPublisherFactory): void;
}

export const gitopsPublisherExtensionPoint =
  createExtensionPoint<GitopsPublisherExtensionPoint>({
    id: 'infrared.gitops-publisher',
  });

import {
  createExtensionPoint,
  type LoggerService,
  type RootConfigService,
} from '@backstage/backend-plugin-api';
import type { GitopsPublisher } from './types';

/**
 * Builds the gitops publisher once the infrared plugin's services are available.
 *
 * @public
 */
export type GitopsPublisherFactory = (deps: {
  config: RootConfigService;
  logger: LoggerService;
}) => GitopsPublisher | Promise<GitopsPublisher>;

/**
 * The interface for {@link gitopsPublisherExtensionPoint}.
 *
 * @public
 */
export interface GitopsPublisherExtensionPoint {
  /** Replaces the publisher `infrared.gitops.type` would choose. Only one module may set it. */
  setPublisher(factory: GitopsPublisherFactory): void;
}

/**
 * An extension point of the infrared backend plugin that lets another backend module replace the gitops
 * publisher (the GitHub or local git one that `infrared.gitops.type` chooses).
 *
 * @public
 */
export const gitopsPublisherExtensionPoint =
  createExtensionPoint<GitopsPublisherExtensionPoint>({
    id: 'infrared.gitops-publisher',
  });

export type {
  GitopsChange,
  GitopsPublisher,
  GitopsPublishOptions,
  GitopsPublishResult,
  GitopsPullRequest,
  GitopsRepoDescription,
} from './types';
export {
  gitopsPublisherExtensionPoint,
  type GitopsPublisherExtensionPoint,
  type GitopsPublisherFactory,
} from './extensionPoint';

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
export {
  createGitopsPublisher,
  DEFAULT_LOCAL_GITOPS_PATH,
} from './createGitopsPublisher';
export {
  LocalGitPublisher,
  type LocalGitPublisherOptions,
} from './local/LocalGitPublisher';
export type { LocalPullRequest } from './local/pullRecords';
export {
  GithubPublisher,
  type GithubPublisherOptions,
} from './github/GithubPublisher';
export { GitopsPublishError } from './github/errors';
export { branchForKey } from './change';
export {
  buildClusterRegistryReadme,
  buildRegistryApplication,
  clusterComponentsPath,
  appOfAppsPath,
  registrationFiles,
  type RegistryApplicationOptions,
} from './files/registration';

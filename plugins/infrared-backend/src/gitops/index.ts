// The publisher's types and its extension point live in -node, for other backend modules.
export {
  gitopsPublisherExtensionPoint,
  type GitopsChange,
  type GitopsPublisher,
  type GitopsPublisherExtensionPoint,
  type GitopsPublisherFactory,
  type GitopsPublishOptions,
  type GitopsPublishResult,
  type GitopsPullRequest,
  type GitopsRepoDescription,
} from '@infrared-clusters/plugin-infrared-node';
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
export { BatchingPublisher } from './batch/BatchingPublisher';
export {
  buildClusterInfoApplication,
  buildClusterInfoConfigMap,
  buildClusterRegistryReadme,
  clusterInfoPath,
  CLUSTER_INFO_NAMESPACE,
  buildRegistryApplication,
  clusterComponentsPath,
  appOfAppsPath,
  registrationFiles,
  type RegistryApplicationOptions,
} from './files/registration';

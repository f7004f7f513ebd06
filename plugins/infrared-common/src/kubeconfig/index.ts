export * from './types';
export { inspectKubeconfig } from './inspect';
export { serializeArgoConfig } from './argoConfig';
export {
  argoConnectionFor,
  argoConnectionProblems,
  type ArgoConnectionResult,
} from './argoConnection';
export { isInClusterServer } from './cluster';
export { STORABLE_CREDENTIAL_REASON } from './user';

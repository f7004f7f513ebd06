/**
 * The Kubernetes layer of Infrared clusters: one typed client over `@kubernetes/client-node` for the
 * resources the backend, the registrar, its CLI and devenv touch (Clusters, Secrets, Organizations,
 * Products, Releases, Argo CD's kinds, OpenTofu Jobs), the cluster probe, kubeconfig handling, the
 * management cluster's location, watched caches, and the OpenTofu Job manifests and status readers.
 * No Backstage runtime in it. The in-memory fake of the management cluster's API is in `./testUtils`.
 *
 * @packageDocumentation
 */
export * from './client';
export * from './kubeconfig';
export * from './counter';
export * from './errors';
export * from './types';
export * from './resources';
export * from './conditions';
export * from './probe';
export * from './clusterProber';
export * from './probeErrors';
export * from './meta';
export * from './placement';
export * from './provisioning';
export * from './connection';
export * from './management';
export * from './informers';
export * from './pagedList';
export * from './argoClient';
export {
  watchOnce,
  type KubeWatchEnd,
  type KubeWatchEvent,
  type KubeWatchOptions,
} from './watch';
export * from './concurrency';
export * from './tofu';

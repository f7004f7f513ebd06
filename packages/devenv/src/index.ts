/**
 * A real local Kubernetes control plane (etcd, kube-apiserver, kube-controller-manager) for tests and `npm start`.
 *
 * @packageDocumentation
 */
export {
  ensureBinaries,
  cacheDir,
  K8S_VERSION,
  ETCD_VERSION,
} from './binaries';
export type { Binaries } from './binaries';
export {
  startControlPlane,
  stopControlPlane,
  openControlPlane,
  readState,
  isHealthy,
} from './controlPlane';
export type {
  ClusterInfo,
  ControlPlane,
  ControlPlaneState,
  StartOptions,
} from './controlPlane';
export {
  createServiceAccountKubeconfig,
  createNodes,
  installCrds,
  ensureNamespace,
  eventually,
} from './helpers';
export {
  ensureDemoChild,
  setUpDemo,
  registrarLabelsFromConfig,
  DEMO_CHILD,
} from './demo';
export type { DemoChild, DemoChildOptions } from './demo';
export { setUpPlacementDemo } from './demoPlacement';
export type { PlacementDemo, PlacementDemoOptions } from './demoPlacement';
// The one Kubernetes client (@infrared-clusters/infrared-kube's, over @kubernetes/client-node), which
// `ControlPlane.client()` hands out: re-exported for the tests and benches that import it from here.
export {
  KubeClient,
  renderKubeconfig,
  parseKubeconfig,
  type KubeAccess,
  type KubeResponse,
} from '@infrared-clusters/infrared-kube';
export {
  getTestControlPlane,
  removeTestDir,
  uniqueName,
  STATE_ENV,
  recordRecovery,
  FAULT_RECOVERY_FILE,
} from './testing';
export { serverAlias } from './serverAlias';
export type { ServerAlias, ServerAliasOptions } from './serverAlias';
export { ensureTofu, tofuCacheDir, TOFU_VERSION } from './tofu';
export { ensureHelm, helmCacheDir, HELM_VERSION } from './helm';
export {
  CHART_DIR,
  DEPLOY_VALUES,
  renderChart,
  runHelm,
  splitRender,
  deployManifests,
  deployDrift,
  writeDeployManifests,
} from './chart';
export { serverSideApply, parseManifests } from './apply';
export type { AppliedObject } from './apply';
export {
  NodeAgent,
  startNodeAgent,
  tofuImageMapping,
  containerEnv,
  expand,
  imageName,
  mapImage,
  renderLog,
  parseLog,
  fallbackMessage,
} from './nodeAgent';
export type { NodeAgentOptions, ImageMapping } from './nodeAgent';
export { rssBytes } from './processes';
export { etcdEvents, etcdKey, etcdRevision } from './etcd';
export type { EtcdEvent } from './etcd';
export { startPostgres, findPostgresBin } from './postgres';
export type { LocalPostgres } from './postgres';
export {
  ensureArgoCd,
  argocdCacheDir,
  argocdModuleDir,
  ARGOCD_VERSION,
} from './argocdBinary';
export type { ArgoCdBinaries } from './argocdBinary';
export { startArgoCd, ARGOCD_PROCESS_PREFIX } from './argocd';
export {
  bootstrapArgoCd,
  bootstrapManifests,
  BOOTSTRAP_DIR,
} from './argocdBootstrap';
export type { BootstrapOptions } from './argocdBootstrap';
export { upDemoArgoCd, downDemoArgoCd, ARGOCD_ENV } from './argocdDemo';
export type { DemoArgoCd } from './argocdDemo';
export type { ArgoCd, ArgoCdOptions } from './argocd';
export { argocdManifests, rbacPolicy, PANEL_ROLE } from './argocdConfig';
export { findRedisServer } from './redis';

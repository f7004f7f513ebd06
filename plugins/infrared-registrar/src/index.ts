/**
 * The child-cluster registrar: discovers k3k, vcluster, kamaji and Cluster API child clusters in
 * labelled namespaces and keeps their Argo CD cluster Secrets (argocd-cluster-registrar v0.6
 * behaviour). A pure planner, a thin executor, the Lease, metrics and logs, and the Clusters page's
 * listing. The command is the `./cli` entry point (bin `infrared-registrar`); an in-memory fake of its
 * API is in `./testUtils`.
 *
 * @packageDocumentation
 */
export {
  PROVIDER_PRESETS,
  PRESET_NAMES,
  LEGACY_PROVIDER_NAME,
  PROVIDER_OBJECT_KEYS,
  REGISTRAR_DEFAULTS,
  REGISTRAR_INPUT_KEYS,
  RegistrarConfigError,
  durationMs,
  parseGoDuration,
  parseProviderSpec,
  providerOrderWarnings,
  resolveRegistrarOptions,
  type DurationInput,
  type DurationObject,
  type ProviderInput,
  type RegistrarInput,
  type RegistrarOptions,
  type RegistrarProvider,
  type ResolveOptions,
} from './options';
export { planRegistrarPass, desiredClusterSecret } from './plan';
export {
  childOutcomes,
  runRegistrarPass,
  SOURCE_SECRET_FIELD_SELECTOR,
  type RegistrarPassReport,
  type RegistrarWriteResult,
  type RunRegistrarPassDeps,
} from './executor';
export {
  KubeRegistrarApi,
  type KubeRegistrarApiOptions,
  type RegistrarApi,
} from './api';
export { RegistrarWatcher, type RegistrarWatcherOptions } from './watch';
export { PendingScope, type RegistrarScope } from './scope';
export {
  LeaseElector,
  LEASE_DEFAULTS,
  registrarLeaseName,
  type LeaseElectorOptions,
} from './lease';
export {
  BULK_FETCH_THRESHOLD,
  SecretDataCache,
  secretDataCacheFor,
} from './reads';
export {
  RegistrarMetrics,
  REGISTRAR_METRIC_NAMES,
  type RegistrarMeter,
  type RegistrarMetricAttributes,
} from './metrics';
export { slogTextLogger, formatSlogText, type RegistrarLogger } from './logger';
export {
  listDiscoveredClusters,
  discoveredClustersFromSecrets,
  discoveredSecretsSelector,
  type DiscoveredCluster,
  type DiscoveredClustersOptions,
  type SecretLister,
} from './discovered';
export { auditRegistrations, type RegistrarAudit } from './audit';
export { credentialExpiry } from './expiry';
export { registrarKeys, type RegistrarKeys } from './labels';
export { pathMatch, globError } from './glob';
export * from './types';
export type { DiscoveredChild } from './discover';

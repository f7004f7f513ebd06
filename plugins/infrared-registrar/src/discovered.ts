import { registrationState, isOwned } from './audit';
import { byteOrder, registrarKeys } from './labels';
import { REGISTRAR_DEFAULTS, type RegistrarOptions } from './options';
import { secretServer, secretValue, withData } from './secrets';
import type { RegistrarSecret, RegistrationState } from './types';

/**
 * A child cluster as the Clusters page lists it, from an Argo CD Secret the registrar owns.
 *
 * @public
 */
export interface DiscoveredCluster {
  /** The Argo CD cluster name. */
  name: string;
  /** The Argo CD Secret's name (in the target namespace); listDiscoveredClusters sets it. */
  secret?: string;
  server: string;
  /** The namespace it was discovered in ('' when the Secret records none). */
  sourceNamespace: string;
  /** The provider preset (or custom provider) whose Secret it came from. */
  provider: string;
  /** `demoted`: superseded by a rename, hidden from Argo CD but kept. */
  state: RegistrationState;
}

/** @public */
export type DiscoveredClustersOptions = Partial<
  Pick<RegistrarOptions, 'targetNamespace' | 'labelPrefix' | 'managedBy'>
>;

/**
 * Anything that lists the Secrets of one namespace by label selector (ManagementApi.secrets fits).
 *
 * @public
 */
export interface SecretLister {
  list(
    namespace: string,
    labelSelector?: string,
  ): Promise<Array<Pick<RegistrarSecret, 'metadata' | 'data' | 'stringData'>>>;
}

/**
 * Pure: the discovered clusters among Secrets of the target namespace, sorted by name.
 *
 * @public
 */
export function discoveredClustersFromSecrets(
  secrets: Array<Pick<RegistrarSecret, 'metadata' | 'data' | 'stringData'>>,
  options: DiscoveredClustersOptions = {},
): DiscoveredCluster[] {
  const labelPrefix = options.labelPrefix ?? REGISTRAR_DEFAULTS.labelPrefix;
  const managedBy = options.managedBy ?? REGISTRAR_DEFAULTS.managedBy;
  const keys = registrarKeys(labelPrefix);
  return secrets
    .map(s => withData(s as RegistrarSecret))
    .filter(s => isOwned(s, { labelPrefix, managedBy }))
    .map(s => {
      const labels = s.metadata.labels ?? {};
      return {
        name:
          secretValue(s, 'name') ||
          labels[keys.cluster] ||
          s.metadata.name.replace(/^cluster-/, ''),
        secret: s.metadata.name,
        server: secretServer(s),
        sourceNamespace: labels[keys.sourceNamespace] ?? '',
        provider: labels[keys.provider] ?? '',
        state: registrationState(s, labelPrefix),
      };
    })
    .sort((a, b) => byteOrder(a.name, b.name));
}

/**
 * Where the registrar's Argo CD Secrets are: the target namespace, and the label selector of the
 * Secrets it owns (`<prefix>managed-by=<value>`). A watch of them selects as the LIST does.
 *
 * @public
 */
export function discoveredSecretsSelector(
  options: DiscoveredClustersOptions = {},
): { namespace: string; labelSelector: string } {
  const labelPrefix = options.labelPrefix ?? REGISTRAR_DEFAULTS.labelPrefix;
  const managedBy = options.managedBy ?? REGISTRAR_DEFAULTS.managedBy;
  return {
    namespace: options.targetNamespace ?? REGISTRAR_DEFAULTS.targetNamespace,
    labelSelector: `${registrarKeys(labelPrefix).managedBy}=${managedBy}`,
  };
}

/**
 * The child clusters the registrar registered: one LIST of the owned Secrets in the target
 * namespace (`<prefix>managed-by=<value>`), demoted ones included.
 *
 * @public
 */
export async function listDiscoveredClusters(
  secrets: SecretLister,
  options: DiscoveredClustersOptions = {},
): Promise<DiscoveredCluster[]> {
  const { namespace, labelSelector } = discoveredSecretsSelector(options);
  const list = await secrets.list(namespace, labelSelector);
  return discoveredClustersFromSecrets(list, options);
}

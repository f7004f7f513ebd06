/** Where a zone's files live in the gitops repository, and the rules a custom path must follow. */
import type { ProductZone } from './types';

/**
 * Longest zone name: the zone is a namespace.
 *
 * @public
 */
export const ZONE_NAME_MAX_LENGTH = 63;

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/**
 * The cluster a zone runs on: its `cluster`, or the management cluster when it names none.
 *
 * @public
 */
export function zoneTargetCluster(
  zone: Pick<ProductZone, 'cluster'>,
  managementCluster: string,
): string {
  return zone.cluster || managementCluster;
}

/**
 * The Argo CD Application of a zone: `product-<zone>` in namespace argocd.
 *
 * @public
 */
export function zoneApplicationName(zone: Pick<ProductZone, 'name'>): string {
  return `product-${zone.name}`;
}

/**
 * The zone's Application file: its `applicationPath`, or
 * `registry/clusters/<zone cluster>/components/product-<zone>.yaml`, which the cluster's app-of-apps
 * `registry-<zone cluster>` syncs.
 *
 * @public
 */
export function zoneApplicationPath(
  zone: Pick<ProductZone, 'name' | 'cluster' | 'applicationPath'>,
  managementCluster: string,
): string {
  if (zone.applicationPath) return zone.applicationPath;
  const cluster = zoneTargetCluster(zone, managementCluster);
  return `registry/clusters/${cluster}/components/${zoneApplicationName(
    zone,
  )}.yaml`;
}

/**
 * The zone's values file: its `valuesPath`, or `products/<product>/zones/<zone>/values.yaml`.
 *
 * @public
 */
export function zoneValuesPath(
  product: string,
  zone: Pick<ProductZone, 'name' | 'valuesPath'>,
): string {
  return (
    zone.valuesPath || `products/${product}/zones/${zone.name}/values.yaml`
  );
}

/**
 * What is wrong with a zone name (it must be a namespace name), or undefined.
 *
 * @public
 */
export function zoneNameProblem(name: unknown): string | undefined {
  if (typeof name !== 'string' || !name) return 'the zone has no name';
  if (name.length > ZONE_NAME_MAX_LENGTH) {
    return `zone name "${name}" is ${name.length} characters long; a namespace name has at most ${ZONE_NAME_MAX_LENGTH}`;
  }
  if (!DNS_LABEL.test(name)) {
    return `zone name "${name}" is not a namespace name (lowercase letters, digits and hyphens, alphanumeric at both ends)`;
  }
  return undefined;
}

/**
 * What is wrong with a repository path for a zone's Application file, or undefined: it must be
 * relative, with forward slashes, no empty, `.` or `..` segments, end in `.yaml` or `.yml`, and not be
 * a cluster's registration file (`registry/clusters/<c>/components/cluster-<name>.yaml`).
 *
 * @public
 */
export function applicationPathProblem(
  path: unknown,
  field = 'applicationPath',
): string | undefined {
  if (typeof path !== 'string' || !path) return `${field} is empty`;
  if (path.includes('\\')) {
    return `${field} "${path}" must use forward slashes`;
  }
  if (path.startsWith('/')) {
    return `${field} "${path}" must be relative to the gitops repository's root, without a leading /`;
  }
  const segments = path.split('/');
  if (segments.some(s => s === '' || s === '.' || s === '..')) {
    return `${field} "${path}" must not have empty, "." or ".." segments`;
  }
  if (!/\.ya?ml$/.test(path)) {
    return `${field} "${path}" must name a .yaml or .yml file`;
  }
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(path)) {
    return `${field} "${path}" must not contain control characters`;
  }
  if (/^registry\/clusters\/[^/]+\/components\/cluster-[^/]+$/.test(path)) {
    return `${field} "${path}" is where a cluster's registration (its app-of-apps) lives; choose another file name`;
  }
  return undefined;
}

/**
 * The cluster name rule, defined once: the API, the register form and the Cluster CRD's CEL rule
 * (deploy/crds/clusters.yaml, checked against these constants by a test) all use it.
 */

/** An RFC 1123 label (without its length limit), in syntax both RE2 (CEL) and JS accept. */
export const DNS_LABEL_PATTERN = '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$';

/** Lowercase letters, digits, hyphens; alphanumeric at both ends. */
export const CLUSTER_NAME_PATTERN = DNS_LABEL_PATTERN;

/** Longest cluster name. */
export const CLUSTER_NAME_MAX_LENGTH = 42;

/** Longest organization name, so that its namespace `ir-org-<name>` fits 63 characters. */
export const ORGANIZATION_NAME_MAX_LENGTH = 56;

const clusterNameRegExp = new RegExp(CLUSTER_NAME_PATTERN);

/**
 * Checks a cluster name against the rule.
 *
 * @returns undefined when the name is valid, else a message naming the field and the reason.
 */
export function validateClusterName(
  name: unknown,
  field: string = 'name',
): string | undefined {
  if (typeof name !== 'string') {
    return `${field} is required and must be a string`;
  }
  if (name.length === 0) {
    return `${field} is required`;
  }
  if (name.length > CLUSTER_NAME_MAX_LENGTH) {
    return `${field} is ${name.length} characters long; at most ${CLUSTER_NAME_MAX_LENGTH} are allowed`;
  }
  const bad = name.match(/[^-a-z0-9]/);
  if (bad) {
    const hint = /[A-Z]/.test(bad[0]) ? ' (use lowercase)' : '';
    return `${field} may contain only lowercase letters, digits and hyphens, but contains "${bad[0]}"${hint}`;
  }
  if (!clusterNameRegExp.test(name)) {
    return `${field} must start and end with a lowercase letter or digit, not a hyphen`;
  }
  return undefined;
}

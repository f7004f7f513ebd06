/**
 * The cluster name rule, defined once: the API, the register form and the Cluster CRD's CEL rule
 * (deploy/crds/clusters.yaml, checked against these constants by a test) all use it.
 */

/**
 * An RFC 1123 label (without its length limit), in syntax both RE2 (CEL) and JS accept.
 *
 * @public
 */
export const DNS_LABEL_PATTERN = '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$';

/**
 * Lowercase letters, digits, hyphens; alphanumeric at both ends.
 *
 * @public
 */
export const CLUSTER_NAME_PATTERN = DNS_LABEL_PATTERN;

/**
 * Longest cluster name.
 *
 * @public
 */
export const CLUSTER_NAME_MAX_LENGTH = 42;

/**
 * Longest organization name, so that its namespace `ir-org-<name>` fits 63 characters.
 *
 * @public
 */
export const ORGANIZATION_NAME_MAX_LENGTH = 56;

/**
 * An RFC 1123 subdomain: the rule of most Kubernetes object names (a Product's, a Secret's).
 *
 * @public
 */
export const DNS_SUBDOMAIN_PATTERN =
  '^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$';

/**
 * Longest RFC 1123 label (a namespace's name).
 *
 * @public
 */
export const DNS_LABEL_MAX_LENGTH = 63;
/**
 * Longest RFC 1123 subdomain.
 *
 * @public
 */
export const DNS_SUBDOMAIN_MAX_LENGTH = 253;

const labelRegExp = new RegExp(DNS_LABEL_PATTERN);
const subdomainRegExp = new RegExp(DNS_SUBDOMAIN_PATTERN);

/**
 * Checks a name against the RFC 1123 label rule (or, with `subdomain`, the subdomain rule) and a
 * length. Every name that reaches a Kubernetes API path or a gitops file path passes here first,
 * so none can hold a `/`, a `..`, a `%` or a character that only looks like an allowed one.
 *
 * @returns undefined when the name is valid, else a message naming the field and the reason.
 *
 * @public
 */
export function dnsNameProblem(
  name: unknown,
  field: string,
  maxLength: number,
  subdomain = false,
): string | undefined {
  if (typeof name !== 'string') {
    return `${field} is required and must be a string`;
  }
  if (name.length === 0) {
    return `${field} is required`;
  }
  if (name.length > maxLength) {
    return `${field} is ${name.length} characters long; at most ${maxLength} are allowed`;
  }
  const bad = name.match(subdomain ? /[^-a-z0-9.]/u : /[^-a-z0-9]/u);
  if (bad) {
    const hint = /[A-Z]/.test(bad[0]) ? ' (use lowercase)' : '';
    const allowed = subdomain
      ? 'lowercase letters, digits, hyphens and dots'
      : 'lowercase letters, digits and hyphens';
    return `${field} may contain only ${allowed}, but contains ${JSON.stringify(
      bad[0],
    )}${hint}`;
  }
  if (!(subdomain ? subdomainRegExp : labelRegExp).test(name)) {
    return subdomain
      ? `${field} must start and end with a lowercase letter or digit, and so must each of its dot-separated parts`
      : `${field} must start and end with a lowercase letter or digit, not a hyphen`;
  }
  return undefined;
}

/**
 * Checks a cluster name against the rule.
 *
 * @returns undefined when the name is valid, else a message naming the field and the reason.
 *
 * @public
 */
export function validateClusterName(
  name: unknown,
  field: string = 'name',
): string | undefined {
  return dnsNameProblem(name, field, CLUSTER_NAME_MAX_LENGTH);
}

/**
 * Checks an Organization's name: a label short enough for its namespace `ir-org-<name>`.
 *
 * @public
 */
export function validateOrganizationName(
  name: unknown,
  field: string = 'org',
): string | undefined {
  return dnsNameProblem(name, field, ORGANIZATION_NAME_MAX_LENGTH);
}

/**
 * Checks a namespace's name (an RFC 1123 label).
 *
 * @public
 */
export function validateNamespaceName(
  name: unknown,
  field: string = 'namespace',
): string | undefined {
  return dnsNameProblem(name, field, DNS_LABEL_MAX_LENGTH);
}

/**
 * Checks a namespaced object's name, such as a Product's (an RFC 1123 subdomain).
 *
 * @public
 */
export function validateObjectName(
  name: unknown,
  field: string = 'name',
): string | undefined {
  return dnsNameProblem(name, field, DNS_SUBDOMAIN_MAX_LENGTH, true);
}

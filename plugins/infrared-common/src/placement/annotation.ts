/**
 * The catalog annotation that ties an entity to a Product: `infrared.darkshift.io/product: <namespace>/<name>`.
 *
 * @public
 */
export const PRODUCT_ANNOTATION = 'infrared.darkshift.io/product';

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS_SUBDOMAIN =
  /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/**
 * The Product an annotation value names, or what is wrong with it: `<namespace>/<name>`, a
 * namespace name and a resource name.
 *
 * @public
 */
export function parseProductRef(
  value: unknown,
): { namespace: string; name: string } | { error: string } {
  const shape = `${PRODUCT_ANNOTATION} must be <namespace>/<name>, like ir-org-acme/checkout`;
  if (typeof value !== 'string' || !value.trim()) return { error: shape };
  const parts = value.trim().split('/');
  if (parts.length !== 2) return { error: `${shape}, not "${value}"` };
  const [namespace, name] = parts;
  if (namespace.length > 63 || !DNS_LABEL.test(namespace)) {
    return { error: `${shape}: "${namespace}" is not a namespace name` };
  }
  if (name.length > 253 || !DNS_SUBDOMAIN.test(name)) {
    return { error: `${shape}: "${name}" is not a resource name` };
  }
  return { namespace, name };
}

/**
 * The field rules of a Cluster, defined once. The API's validator (api/request.ts) is built from
 * them, and `node scripts/field-rules.js` writes them into the YAML that states them again: the
 * OpenAPI spec (infrared-backend/src/schema/openapi.yaml), the CRDs (the chart's, and their copies
 * in deploy/crds) and the scaffolder template (examples/templates/new-cluster). Its `--check`
 * (and infrared-backend's src/schema/rules.test.ts) fails when one of them was not regenerated.
 *
 * Patterns are strings in the syntax both JavaScript and RE2 (the API server's regexp) read the
 * same way: no lookaround, no backreferences.
 */
import {
  CLUSTER_NAME_MAX_LENGTH,
  CLUSTER_NAME_PATTERN,
  DNS_LABEL_PATTERN,
} from './name';
import {
  SECRET_NAME_MAX_LENGTH,
  SECRET_NAME_PATTERN,
} from '../provisioning/rules';
import {
  CLUSTER_FLAVORS,
  CLUSTER_PROVIDERS,
  CLUSTER_TYPES,
  CONDITION_STATUSES,
} from './types';

/**
 * A region: a DNS label, like us-east-1.
 *
 * @public
 */
export const REGION_PATTERN = DNS_LABEL_PATTERN;

/**
 * Longest region.
 *
 * @public
 */
export const REGION_MAX_LENGTH = 63;

const HOST_LABEL = '[A-Za-z0-9]([-A-Za-z0-9]*[A-Za-z0-9])?';

/**
 * The API server address Argo CD uses (`spec.server`): https, a host name or an address (IPv6 in
 * brackets), an optional port and an optional path; no user information, query or fragment.
 *
 * @public
 */
export const SERVER_PATTERN = `^https://(\\[[0-9A-Fa-f:.]+\\]|${HOST_LABEL}(\\.${HOST_LABEL})*)(:[0-9]{1,5})?(/[^\\s?#\\\\]*)?$`;

/**
 * A string field's rule, as JSON Schema (OpenAPI, CRD) states it.
 *
 * @public
 */
export interface StringRule {
  pattern?: string;
  maxLength?: number;
  enum?: readonly string[];
}

/**
 * Every field rule of the Cluster resource and of POST /v1/clusters, keyed by field. `name` is
 * the Cluster's metadata.name (the CRD states it as a CEL rule), the rest are spec fields.
 *
 * @public
 */
export const CLUSTER_FIELD_RULES = {
  name: { pattern: CLUSTER_NAME_PATTERN, maxLength: CLUSTER_NAME_MAX_LENGTH },
  type: { enum: CLUSTER_TYPES },
  flavor: { enum: CLUSTER_FLAVORS },
  provider: { enum: CLUSTER_PROVIDERS },
  region: { pattern: REGION_PATTERN, maxLength: REGION_MAX_LENGTH },
  server: { pattern: SERVER_PATTERN },
} as const satisfies Record<string, StringRule>;

/**
 * The rule of a condition's status, in every resource's status and in the API's views.
 *
 * @public
 */
export const CONDITION_STATUS_RULE = {
  enum: CONDITION_STATUSES,
} as const satisfies StringRule;

/**
 * A key of a Secret's data: letters, digits, `-`, `_` and `.` (the API server's rule).
 *
 * @public
 */
export const SECRET_KEY_PATTERN = '^[-._a-zA-Z0-9]+$';

/**
 * The rules of `spec.connection.viewerKubeconfigSecretRef`, the read-only kubeconfig Secret of the
 * Kubernetes plugin: a Secret name and a Secret key. The Cluster CRD states them again (a test in
 * -common, clusters/crd.test.ts, compares), and the Kubernetes module refuses a reference that
 * breaks them.
 *
 * @public
 */
export const VIEWER_SECRET_REF_RULES = {
  name: { pattern: SECRET_NAME_PATTERN, maxLength: SECRET_NAME_MAX_LENGTH },
  key: { pattern: SECRET_KEY_PATTERN, maxLength: SECRET_NAME_MAX_LENGTH },
} as const satisfies Record<string, StringRule>;

/**
 * The reason a `spec.connection.viewerKubeconfigSecretRef` is refused, if it is.
 *
 * @public
 */
export function viewerSecretRefProblem(ref: unknown): string | undefined {
  const field = 'spec.connection.viewerKubeconfigSecretRef';
  if (typeof ref !== 'object' || ref === null) {
    return `${field} must be {"name": <Secret in namespace infrared>, "key": <key, default kubeconfig>}`;
  }
  const { name, key } = ref as { name?: unknown; key?: unknown };
  for (const [part, value, rule, optional] of [
    ['name', name, VIEWER_SECRET_REF_RULES.name, false],
    ['key', key, VIEWER_SECRET_REF_RULES.key, true],
  ] as const) {
    if (optional && value === undefined) continue;
    if (
      typeof value !== 'string' ||
      value.length > rule.maxLength ||
      !new RegExp(rule.pattern).test(value)
    ) {
      return `${field}.${part} must match ${rule.pattern}, at most ${rule.maxLength} characters`;
    }
  }
  return undefined;
}

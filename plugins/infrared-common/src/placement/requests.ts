/** The placement API's request bodies and their rules (the router and the UI both use these). */
import { validateClusterName } from '../clusters/name';
import type { FieldError } from '../fieldErrors';
import type {
  ClusterAllowlist as ClusterAllowlistBody,
  SetZoneClusterRequest as SetZoneClusterRequestBody,
} from '../schema/openapi';

/**
 * Most clusters one org's allowlist may hold.
 *
 * @public
 */
export const MAX_ALLOWLIST_CLUSTERS = 1000;

/**
 * Body of PUT and GET /v1/orgs/\{org\}/cluster-allowlist (the generated model).
 *
 * @public
 */
export type ClusterAllowlist = ClusterAllowlistBody;

/**
 * Body of PUT /v1/products/\{namespace\}/\{name\}/zones/\{zone\}/cluster: "" = the management cluster.
 *
 * @public
 */
export type SetZoneClusterRequest = SetZoneClusterRequestBody;

/** @public */
export type PlacementValidation<T> = { value: T } | { errors: FieldError[] };

function isObject(body: unknown): body is Record<string, unknown> {
  return typeof body === 'object' && body !== null && !Array.isArray(body);
}

function unknownFields(
  body: Record<string, unknown>,
  allowed: string[],
  shape: string,
): FieldError[] {
  return Object.keys(body)
    .filter(key => !allowed.includes(key))
    .map(key => ({
      field: key || 'body', // an empty key still names where it is
      message: `unknown field "${key}": the body must be ${shape}`,
    }));
}

const ALLOWLIST_SHAPE = '{"clusters": [cluster names]}';

/**
 * Validates a PUT /v1/orgs/\{org\}/cluster-allowlist body: `{"clusters": [string]}`, at most 1,000 valid
 * cluster names, none twice. Reports every problem, each naming its field.
 *
 * @public
 */
export function validateAllowlistRequest(
  body: unknown,
): PlacementValidation<ClusterAllowlist> {
  if (!isObject(body)) {
    return {
      errors: [
        {
          field: 'body',
          message: `the request body must be a JSON object ${ALLOWLIST_SHAPE}`,
        },
      ],
    };
  }
  const errors = unknownFields(body, ['clusters'], ALLOWLIST_SHAPE);
  const clusters = body.clusters;
  if (!Array.isArray(clusters)) {
    errors.push({
      field: 'clusters',
      message:
        clusters === undefined
          ? `clusters is required: the body must be ${ALLOWLIST_SHAPE}`
          : 'clusters must be an array of cluster names',
    });
    return { errors };
  }
  if (clusters.length > MAX_ALLOWLIST_CLUSTERS) {
    errors.push({
      field: 'clusters',
      message: `clusters holds ${clusters.length} names; an allowlist holds at most ${MAX_ALLOWLIST_CLUSTERS}`,
    });
    return { errors };
  }
  const seen = new Map<string, number>();
  clusters.forEach((name, i) => {
    const field = `clusters[${i}]`;
    const problem = validateClusterName(name, field);
    if (problem) {
      errors.push({ field, message: problem });
      return;
    }
    const first = seen.get(name as string);
    if (first !== undefined) {
      errors.push({
        field,
        message: `${field} repeats "${name}" (already clusters[${first}]); list each cluster once`,
      });
    } else {
      seen.set(name as string, i);
    }
  });
  if (errors.length) return { errors };
  return { value: { clusters: [...(clusters as string[])] } };
}

/**
 * Validates a PUT .../zones/\{zone\}/cluster body: `{"cluster": "<name>"}`, or `""` for the management cluster.
 *
 * @public
 */
export function validateSetZoneClusterRequest(
  body: unknown,
): PlacementValidation<SetZoneClusterRequest> {
  const shape = '{"cluster": "<cluster name>"} ("" for the management cluster)';
  if (!isObject(body)) {
    return {
      errors: [
        {
          field: 'body',
          message: `the request body must be a JSON object ${shape}`,
        },
      ],
    };
  }
  const errors = unknownFields(body, ['cluster'], shape);
  const cluster = body.cluster;
  if (cluster === undefined) {
    errors.push({
      field: 'cluster',
      message: `cluster is required: the body must be ${shape}`,
    });
  } else if (typeof cluster !== 'string') {
    errors.push({
      field: 'cluster',
      message:
        'cluster must be a string: a cluster name, or "" for the management cluster',
    });
  } else if (cluster !== '') {
    const problem = validateClusterName(cluster, 'cluster');
    if (problem) errors.push({ field: 'cluster', message: problem });
  }
  if (errors.length) return { errors };
  return { value: { cluster: cluster as string } };
}

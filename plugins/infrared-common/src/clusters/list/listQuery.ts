import type { FieldError } from '../../fieldErrors';
import { validateOrganizationName } from '../name';
import { STATUS_FILTERS, type StatusFilter } from './filterClusters';
import { SORT_KEYS, type SortKey } from './sortClusters';

/**
 * GET /v1/clusters's query, read: the filters, sort and page; `org` still to be turned into the
 * names on its allowlist.
 *
 * @public
 */
export interface ClusterListParams {
  search?: string;
  status?: StatusFilter;
  org?: string;
  sort?: SortKey;
  order?: 'asc' | 'desc';
  limit?: number;
  continue?: string;
}

/** The largest page GET /v1/clusters answers. */
const MAX_LIMIT = 1000;
const MAX_SEARCH = 200;
const MAX_TOKEN = 2048;

type Reader = (value: string, field: string) => string | undefined;

const oneOf =
  (values: readonly string[]): Reader =>
  (value, field) =>
    values.includes(value)
      ? undefined
      : `${field} must be one of ${values.join(', ')}`;

const READERS: Record<keyof ClusterListParams, Reader> = {
  search: (v, f) =>
    v.length > MAX_SEARCH
      ? `${f} is longer than ${MAX_SEARCH} characters`
      : undefined,
  status: oneOf(STATUS_FILTERS.map(s => s.value)),
  org: (v, f) => validateOrganizationName(v, f),
  sort: oneOf(SORT_KEYS),
  order: oneOf(['asc', 'desc']),
  limit: (v, f) =>
    /^\d+$/.test(v) && Number(v) >= 1 && Number(v) <= MAX_LIMIT
      ? undefined
      : `${f} must be a whole number from 1 to ${MAX_LIMIT}`,
  continue: (v, f) =>
    v.length > MAX_TOKEN
      ? `${f} is not a continue token this API gave`
      : undefined,
};

/**
 * Reads GET /v1/clusters's query parameters: each known one at most once and valid, no other.
 *
 * @public
 */
export function readClusterListParams(
  query: Record<string, unknown>,
): { params: ClusterListParams } | { errors: FieldError[] } {
  const errors: FieldError[] = [];
  const params: Record<string, string | number> = {};
  for (const [field, value] of Object.entries(query)) {
    const read = READERS[field as keyof ClusterListParams];
    let message: string | undefined;
    if (!read) message = `${field} is not a parameter of this list`;
    else if (typeof value !== 'string') message = `${field} must be given once`;
    else message = read(value, field);
    if (message) errors.push({ field, message });
    else params[field] = field === 'limit' ? Number(value) : (value as string);
  }
  return errors.length
    ? { errors }
    : { params: params as unknown as ClusterListParams };
}

/** The label and annotation keys the registrar reads and writes, and what it copies off a namespace. */

export const ARGO_SECRET_TYPE_LABEL = 'argocd.argoproj.io/secret-type';
export const ARGO_SECRET_TYPE_CLUSTER = 'cluster';
/** The only value of `<prefix>prune` that pins a registration. */
export const PRUNE_DISABLED = 'disabled';
/** `<prefix>stale-since` format: basic ISO 8601, as label values may not hold ':'. */
export const STALE_SINCE_RE = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/;

/** Suffixes derived by the registrar itself: never copied off a source namespace. */
export const RESERVED_SUFFIXES = [
  'managed-by',
  'cluster',
  'source-namespace',
  'source-namespace-uid',
  'provider',
  'orphaned-secret-type',
  'superseded-by',
  'stale-since',
  'prune',
] as const;

/**
 * The label and annotation keys of the registrar under its label prefix.
 *
 * @public
 */
export interface RegistrarKeys {
  prefix: string;
  managedBy: string;
  cluster: string;
  sourceNamespace: string;
  sourceNamespaceUid: string;
  provider: string;
  orphanedSecretType: string;
  supersededBy: string;
  staleSince: string;
  prune: string;
}

/** @public */
export function registrarKeys(prefix: string): RegistrarKeys {
  return {
    prefix,
    managedBy: `${prefix}managed-by`,
    cluster: `${prefix}cluster`,
    sourceNamespace: `${prefix}source-namespace`,
    sourceNamespaceUid: `${prefix}source-namespace-uid`,
    provider: `${prefix}provider`,
    orphanedSecretType: `${prefix}orphaned-secret-type`,
    supersededBy: `${prefix}superseded-by`,
    staleSince: `${prefix}stale-since`,
    prune: `${prefix}prune`,
  };
}

const reserved = (prefix: string) =>
  new Set(RESERVED_SUFFIXES.map(s => `${prefix}${s}`));

/** Byte order, as Go sorts strings (localeCompare would not). */
export function byteOrder(a: string, b: string): number {
  if (a === b) return 0;
  return a < b ? -1 : 1;
}

/** The namespace's prefixed labels minus the reserved ones: what an ApplicationSet selects on. */
export function propagatedLabels(
  labels: Record<string, string> | undefined,
  prefix: string,
): Record<string, string> {
  const skip = reserved(prefix);
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(labels ?? {})) {
    if (k.startsWith(prefix) && !skip.has(k)) out[k] = v;
  }
  return out;
}

/** Bounds on propagated annotations (upstream 0.6). */
export const ANNOTATION_LIMITS = {
  /** Bytes of one value; a larger one is skipped, never truncated. */
  valueBytes: 4096,
  keys: 32,
  /** Bytes of all admitted annotations, keys and values, as the API server counts them. */
  totalBytes: 32768,
} as const;

export interface DroppedAnnotation {
  key: string;
  reason: 'value_too_large' | 'too_many_keys' | 'total_too_large';
}

/**
 * The namespace's prefixed annotations minus the reserved keys, admitted in sorted key order
 * within the limits, so which ones fit does not change between passes.
 */
export function propagatedAnnotations(
  annotations: Record<string, string> | undefined,
  prefix: string,
): { annotations: Record<string, string>; dropped: DroppedAnnotation[] } {
  const skip = reserved(prefix);
  const out: Record<string, string> = {};
  const dropped: DroppedAnnotation[] = [];
  let count = 0;
  let total = 0;
  const keys = Object.keys(annotations ?? {})
    .filter(k => k.startsWith(prefix) && !skip.has(k))
    .sort(byteOrder);
  for (const k of keys) {
    const v = annotations![k];
    const valueBytes = Buffer.byteLength(v, 'utf8');
    if (valueBytes > ANNOTATION_LIMITS.valueBytes) {
      dropped.push({ key: k, reason: 'value_too_large' });
      continue;
    }
    if (count >= ANNOTATION_LIMITS.keys) {
      dropped.push({ key: k, reason: 'too_many_keys' });
      continue;
    }
    const size = Buffer.byteLength(k, 'utf8') + valueBytes;
    if (total + size > ANNOTATION_LIMITS.totalBytes) {
      dropped.push({ key: k, reason: 'total_too_large' });
      continue;
    }
    out[k] = v;
    count++;
    total += size;
  }
  return { annotations: out, dropped };
}

/** `stale-since` for a time: 20260807T143000Z. */
export function formatStaleSince(at: Date): string {
  return at
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
}

/** The time a `stale-since` value records; undefined when it does not parse. */
export function parseStaleSince(value: string | undefined): Date | undefined {
  const m = value ? STALE_SINCE_RE.exec(value) : null;
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s] = m.map(Number);
  const t = Date.UTC(y, mo - 1, d, h, mi, s);
  const date = new Date(t);
  // Reject 20261340T... and the like, which Date.UTC would roll over.
  if (
    date.getUTCFullYear() !== y ||
    date.getUTCMonth() !== mo - 1 ||
    date.getUTCDate() !== d ||
    date.getUTCHours() !== h ||
    date.getUTCMinutes() !== mi ||
    date.getUTCSeconds() !== s
  ) {
    return undefined;
  }
  return date;
}

import {
  ClusterConditionTypes,
  type ClusterCondition,
  type ClusterResource,
  type ClusterStatus,
} from '@infrared-clusters/plugin-infrared-common';
import { canonicalJson } from '../../canonicalJson';

/** The status fields this reconciler owns; the rest (provision, detected ...) belong to others. */
const OWNED_FIELDS = [
  'kubernetesVersion',
  'nodes',
  'argoSecret',
  'argoServer',
  'gitopsPath',
  'pullRequest',
  'observedGeneration',
] as const;
const OWNED_CONDITIONS: string[] = [
  ClusterConditionTypes.Connected,
  ClusterConditionTypes.Registered,
];

export const findCondition = (
  status: ClusterStatus | undefined,
  type: string,
): ClusterCondition | undefined =>
  status?.conditions?.find(c => c.type === type);

/**
 * `base` with the fields this reconciler owns taken from `desired`; everything else in `base`
 * (fields and conditions of other reconcilers) kept. Used for the first write and after a conflict.
 */
export function mergeOwnedStatus(
  base: ClusterStatus | undefined,
  desired: ClusterStatus,
): ClusterStatus {
  const out: ClusterStatus = { ...base };
  for (const key of OWNED_FIELDS) {
    if (desired[key] === undefined) delete out[key];
    else (out as any)[key] = desired[key];
  }
  const conditions: ClusterCondition[] = [...(base?.conditions ?? [])];
  for (const c of desired.conditions ?? []) {
    if (!OWNED_CONDITIONS.includes(c.type)) continue;
    const i = conditions.findIndex(x => x.type === c.type);
    if (i >= 0) conditions[i] = c;
    else conditions.push(c);
  }
  if (conditions.length) out.conditions = conditions;
  return out;
}

/** Whether writing `desired` would change the stored status. */
export function statusChanged(
  current: ClusterStatus | undefined,
  desired: ClusterStatus,
): boolean {
  return (
    canonicalJson(mergeOwnedStatus(current, desired)) !==
    canonicalJson(current ?? {})
  );
}

/**
 * The Cluster to PUT to the status subresource so that it has `desired`, on top of `current` (as
 * read: its resourceVersion is the precondition); undefined when there is nothing to write: the
 * Cluster is gone or being deleted, or its status already is that.
 */
export function statusWrite(
  current: ClusterResource | undefined,
  desired: ClusterStatus,
): ClusterResource | undefined {
  if (!current || current.metadata.deletionTimestamp) return undefined;
  if (!statusChanged(current.status, desired)) return undefined;
  return { ...current, status: mergeOwnedStatus(current.status, desired) };
}

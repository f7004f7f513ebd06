import {
  CLUSTER_KIND,
  CLUSTER_NAME_LABEL,
  INFRARED_GROUP,
  MANAGED_BY_INFRARED,
  MANAGED_BY_LABEL,
  type ClusterResource,
  type OwnerReference,
} from '@infrared-clusters/plugin-infrared-common';
import { controllerReferenceTo } from '../../kube/ownerReference';

const isInfraredCluster = (ref: { apiVersion: string; kind: string }) =>
  ref.kind === CLUSTER_KIND && ref.apiVersion.startsWith(`${INFRARED_GROUP}/`);

/**
 * The owner references a dependent should have: the Cluster's, added once; references to an
 * earlier Cluster of the same name (deleted and made again) dropped; others kept. When another
 * owner already is the controller, ours is added as a plain owner.
 */
export function ownerReferencesFor(
  existing: readonly OwnerReference[] | undefined,
  cluster: ClusterResource,
): OwnerReference[] {
  const ours = controllerReferenceTo(cluster);
  const kept = (existing ?? []).filter(
    r =>
      !(
        isInfraredCluster(r) &&
        r.name === cluster.metadata.name &&
        r.uid !== ours.uid
      ),
  );
  if (kept.some(r => r.uid === ours.uid)) return kept;
  const otherController = kept.some(r => r.controller);
  return [...kept, otherController ? { ...ours, controller: false } : ours];
}

export function sameOwners(
  a: readonly OwnerReference[] | undefined,
  b: readonly OwnerReference[],
): boolean {
  const key = (r: OwnerReference) =>
    `${r.uid}|${r.name}|${r.kind}|${!!r.controller}`;
  const left = (a ?? []).map(key).sort();
  const right = b.map(key).sort();
  return left.length === right.length && left.every((k, i) => k === right[i]);
}

export const labelsInclude = (
  labels: Record<string, string> | undefined,
  wanted: Record<string, string>,
) => Object.entries(wanted).every(([k, v]) => labels?.[k] === v);

/** The labels every Secret Infrared keeps for a Cluster carries (the executor LISTs by them). */
export function dependentLabels(clusterName: string): Record<string, string> {
  return {
    [MANAGED_BY_LABEL]: MANAGED_BY_INFRARED,
    [CLUSTER_NAME_LABEL]: clusterName,
  };
}

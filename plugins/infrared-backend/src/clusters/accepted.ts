import type { ClusterResource } from '@infrared-clusters/plugin-infrared-common';

/**
 * When a replica's API accepted a Cluster (ISO 8601, set by ClusterService on create): that
 * replica runs a pass over it at once (the fast path), so a pass over every Cluster, on any
 * replica, leaves it alone for ACCEPTED_FAST_PATH_MS. Without it, the scheduled pass that the
 * same write triggers on another replica registers the Cluster too, in a batch of its own: with
 * two replicas every registration reached the gitops repo twice (issue 25).
 */
export const ACCEPTED_AT_ANNOTATION = 'infrared.darkshift.io/accepted-at';

/**
 * How long a pass over every Cluster leaves a just-accepted Cluster to its fast path. When the
 * replica that accepted it stops before its pass, the first scheduled pass after this takes over.
 */
export const ACCEPTED_FAST_PATH_MS = 60_000;

/** The Cluster to create, stamped with when this replica accepted it. */
export function stampAccepted(
  cluster: ClusterResource,
  now: Date,
): ClusterResource {
  return {
    ...cluster,
    metadata: {
      ...cluster.metadata,
      annotations: {
        ...cluster.metadata.annotations,
        [ACCEPTED_AT_ANNOTATION]: now.toISOString(),
      },
    },
  };
}

/**
 * Whether a replica's API accepted this Cluster less than ACCEPTED_FAST_PATH_MS before `now` and its
 * fast path has not written its status yet (it writes it once, after the publish): from then on
 * every pass reconciles it as any other.
 */
export function leftToFastPath(cluster: ClusterResource, now: Date): boolean {
  if (cluster.status?.conditions?.length) return false;
  const at = Date.parse(
    cluster.metadata.annotations?.[ACCEPTED_AT_ANNOTATION] ?? '',
  );
  const age = now.getTime() - at;
  // a stamp from the future (clocks apart) counts as recent, within the same bound
  return Number.isFinite(at) && Math.abs(age) < ACCEPTED_FAST_PATH_MS;
}

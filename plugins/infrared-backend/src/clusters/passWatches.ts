import {
  ARGOCD_NAMESPACE,
  INFRARED_NAMESPACE,
  type ClusterResource,
  type SecretObject,
} from '@infrared-clusters/plugin-infrared-common';
import type { ListedSecrets } from './observe';

/** A set of objects one watch keeps current (a WatchedCache from infrared-kube fits). */
export interface WatchedSet<V> {
  /** Synced, and its watch running: what it holds follows the server. */
  readonly isHealthy: boolean;
  list(namespace?: string): V[];
  get(name: string, namespace?: string): V | undefined;
}

/**
 * What the scheduled pass reads instead of its three LISTs (issue 25: CPU at rest): the Clusters,
 * the Infrared kubeconfig Secrets in `infrared` and the Argo CD cluster Secrets in `argocd`, each
 * kept by one watch selected by the labels the LISTs use.
 */
export interface PassWatches {
  clusters: WatchedSet<ClusterResource>;
  kubeconfigs: WatchedSet<SecretObject>;
  argos: WatchedSet<SecretObject>;
}

/**
 * The pass's reads from the watches, or undefined while one of them has not synced or is broken
 * (the pass LISTs then). A cache may be a few milliseconds behind the server: a write from it keeps
 * its resourceVersion and UID preconditions, so a stale read loses the race and the Cluster is read
 * again with GETs; a change the watch brings later is seen by the next pass.
 */
export function readPassWatches(
  watches: PassWatches | undefined,
): { clusters: ClusterResource[]; secrets: ListedSecrets } | undefined {
  if (!watches) return undefined;
  const { clusters, kubeconfigs, argos } = watches;
  if (!clusters.isHealthy || !kubeconfigs.isHealthy || !argos.isHealthy) {
    return undefined;
  }
  return {
    clusters: clusters.list(),
    secrets: {
      kubeconfigs: { get: name => kubeconfigs.get(name, INFRARED_NAMESPACE) },
      argos: { get: name => argos.get(name, ARGOCD_NAMESPACE) },
    },
  };
}

import { filesHash, type ObservedCluster } from './plan';

const observedName = (observed: ObservedCluster) =>
  observed.cluster.metadata.name;

/**
 * The Clusters whose last pass wrote nothing, with what it saw. A pass that sees exactly that again
 * (the same resourceVersions of the Cluster and its two Secrets, the same registration change, the
 * same probe answer) would plan the same nothing, so it is not planned again (issue 17: CPU at rest
 * at 1,000 clusters). The plan is a pure function of what was observed, so this changes no outcome.
 */
export class QuietClusters {
  private readonly seen = new Map<string, string>();

  /** Whether the last pass over this Cluster wrote nothing and saw what this one sees. */
  unchanged(observed: ObservedCluster): boolean {
    const key = fingerprint(observed);
    return key !== undefined && this.seen.get(observedName(observed)) === key;
  }

  /** Records what a pass saw when it wrote nothing; forgets it otherwise. */
  record(observed: ObservedCluster, wroteNothing: boolean): void {
    const key = wroteNothing ? fingerprint(observed) : undefined;
    if (key === undefined) this.seen.delete(observedName(observed));
    else this.seen.set(observedName(observed), key);
  }

  /** The Clusters it keeps something of. */
  names(): Iterable<string> {
    return this.seen.keys();
  }

  forget(name: string): void {
    this.seen.delete(name);
  }
}

/** What the plan depends on, or undefined when a part has no version to compare. */
function fingerprint(observed: ObservedCluster): string | undefined {
  const { cluster, kubeconfigSecret, argoSecret, registration, probe } =
    observed;
  if (!cluster.metadata.resourceVersion) return undefined;
  const version = (s?: { metadata: { resourceVersion?: string } }) =>
    s ? s.metadata.resourceVersion ?? '?' : '-';
  if (version(kubeconfigSecret) === '?' || version(argoSecret) === '?') {
    return undefined;
  }
  const change =
    'error' in registration
      ? { error: registration.error }
      : [
          registration.key,
          registration.gitopsPath,
          registration.defaultBranch,
          filesHash(registration.files),
        ];
  return JSON.stringify([
    cluster.metadata.uid,
    cluster.metadata.resourceVersion,
    cluster.metadata.generation,
    version(kubeconfigSecret),
    version(argoSecret),
    change,
    probe ?? null,
  ]);
}

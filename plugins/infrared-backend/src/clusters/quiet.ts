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
  private readonly seen = new Map<string, { key: string; parts: unknown[] }>();

  /**
   * Whether the last pass over this Cluster wrote nothing and saw what this one sees: the very
   * same objects (a watch, the memos and the prober hand the same ones while nothing changed), or
   * else the same fingerprint.
   */
  unchanged(observed: ObservedCluster): boolean {
    const seen = this.seen.get(observedName(observed));
    if (!seen) return false;
    const parts = partsOf(observed);
    if (parts.every((part, i) => part === seen.parts[i])) return true;
    const key = fingerprint(observed);
    if (key !== seen.key) return false;
    seen.parts = parts;
    return true;
  }

  /** Records what a pass saw when it wrote nothing; forgets it otherwise. */
  record(observed: ObservedCluster, wroteNothing: boolean): void {
    const key = wroteNothing ? fingerprint(observed) : undefined;
    if (key === undefined) this.seen.delete(observedName(observed));
    else
      this.seen.set(observedName(observed), { key, parts: partsOf(observed) });
  }

  /** The Clusters it keeps something of. */
  names(): Iterable<string> {
    return this.seen.keys();
  }

  forget(name: string): void {
    this.seen.delete(name);
  }
}

/** The objects the fingerprint is made of. */
function partsOf(observed: ObservedCluster): unknown[] {
  const { cluster, kubeconfigSecret, argoSecret, registration, probe } =
    observed;
  return [cluster, kubeconfigSecret, argoSecret, registration, probe];
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

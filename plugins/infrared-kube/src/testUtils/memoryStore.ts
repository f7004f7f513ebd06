import { randomUUID } from 'node:crypto';
import type {
  ClusterResource,
  ObjectMeta,
  SecretObject,
} from '@infrared-clusters/plugin-infrared-common';
import { RequestCounter } from '../counter';
import { KubeApiError } from '../errors';

/** A deep copy: what the fake hands out or keeps is never the caller's object. */
export const clone = <T>(v: T): T => structuredClone(v);

/** A JSON merge patch of a string map: a null value removes the key. */
export function mergeMap(
  a: Record<string, string> | undefined,
  b: Record<string, string | null> | undefined,
): Record<string, string> | undefined {
  if (!b) return a;
  const out = { ...a };
  for (const [k, v] of Object.entries(b)) {
    if (v === null) delete out[k];
    else out[k] = v;
  }
  return out;
}

/** How the API server names a kind in its answers. */
export interface KindNames {
  /** In NotFound, AlreadyExists and resourceVersion Conflict messages. */
  resource: string;
  /** In the Conflict message of a UID precondition. */
  kind: string;
}
export const CLUSTERS: KindNames = {
  resource: 'clusters.infrared.darkshift.io',
  kind: 'Cluster.infrared.darkshift.io',
};
export const SECRETS: KindNames = { resource: 'secrets', kind: 'Secret' };

/** The API server's error answers, word for word (the contract suite holds the fake to them). */
export const answer = {
  notFound: (what: string, k: KindNames, name: string) =>
    new KubeApiError(
      404,
      'NotFound',
      `${what}: ${k.resource} "${name}" not found`,
    ),
  alreadyExists: (what: string, k: KindNames, name: string) =>
    new KubeApiError(
      409,
      'AlreadyExists',
      `${what}: ${k.resource} "${name}" already exists`,
    ),
  modified: (what: string, k: KindNames, name: string) =>
    new KubeApiError(
      409,
      'Conflict',
      `${what}: Operation cannot be fulfilled on ${k.resource} "${name}": the object has been modified; please apply your changes to the latest version and try again`,
    ),
  otherUid: (
    what: string,
    k: KindNames,
    name: string,
    uid: string,
    actual?: string,
  ) =>
    new KubeApiError(
      409,
      'Conflict',
      `${what}: Operation cannot be fulfilled on ${k.kind} "${name}": the UID in the precondition (${uid}) does not match the UID in record (${actual}). The object might have been deleted and then recreated`,
    ),
};

/**
 * What the in-memory management API's kinds share: the resourceVersion counter, the request counter,
 * the failures a test sets up, the stores, preconditions and the garbage collector.
 */
export class MemoryStore {
  readonly counter = new RequestCounter();
  readonly clusters = new Map<string, ClusterResource>();
  readonly secrets = new Map<string, SecretObject>();
  /** Set to make the next call of a method fail, e.g. `failNext.set('clusters.create', error)`. */
  readonly failNext = new Map<string, Error>();
  private version = 1;

  /** The next resourceVersion. */
  tick(): string {
    return String(++this.version);
  }

  /** Counts the request and throws the failure a test set up for `method`, once. */
  check(method: string, verb: string): void {
    this.counter.count(verb);
    const failure = this.failNext.get(method);
    if (failure) {
      this.failNext.delete(method);
      throw failure;
    }
  }

  /** The object `what` is about, after its preconditions hold. */
  existing<T extends { metadata: ObjectMeta }>(
    what: string,
    k: KindNames,
    name: string,
    current: T | undefined,
    pre: { uid?: string; resourceVersion?: string } = {},
  ): T {
    if (!current) throw answer.notFound(what, k, name);
    if (pre.uid && pre.uid !== current.metadata.uid) {
      throw answer.otherUid(what, k, name, pre.uid, current.metadata.uid);
    }
    if (
      pre.resourceVersion &&
      pre.resourceVersion !== current.metadata.resourceVersion
    ) {
      throw answer.modified(what, k, name);
    }
    return current;
  }

  /** The garbage collector: a dependent goes with its last owner, else loses the owner's reference. */
  collect(ownerUid: string | undefined): void {
    for (const [key, s] of this.secrets) {
      const refs = s.metadata.ownerReferences ?? [];
      if (!ownerUid || !refs.some(r => r.uid === ownerUid)) continue;
      const left = refs.filter(r => r.uid !== ownerUid);
      if (!left.length) {
        this.secrets.delete(key);
        continue;
      }
      this.secrets.set(key, {
        ...s,
        metadata: {
          ...s.metadata,
          ownerReferences: left,
          resourceVersion: this.tick(),
        },
      });
    }
  }

  /** The metadata the API server gives a new object. */
  newMeta(meta: ObjectMeta): ObjectMeta {
    return {
      ...clone(meta),
      uid: randomUUID(),
      resourceVersion: this.tick(),
      creationTimestamp: new Date().toISOString(),
    };
  }
}

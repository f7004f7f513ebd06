import { randomUUID } from 'node:crypto';
import type {
  ClusterResource,
  ClusterStatus,
  ObjectMeta,
  OwnerReference,
  SecretObject,
} from '@infrared-clusters/plugin-infrared-common';
import { RequestCounter } from '../kube/counter';
import { KubeApiError } from '../kube/errors';
import type { ClusterApi, ManagementApi, SecretApi } from '../kube/types';

const clone = <T>(v: T): T => structuredClone(v);

/** A JSON merge patch of a string map: a null value removes the key. */
function mergeMap(
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

/** The terms of a label selector: split at the commas outside `in (...)` and `notin (...)`. */
function selectorTerms(selector: string): string[] {
  const terms = [''];
  let depth = 0;
  for (const ch of selector) {
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if (ch === ',' && depth === 0) terms.push('');
    else terms[terms.length - 1] += ch;
  }
  return terms.map(t => t.trim()).filter(Boolean);
}

function matchesTerm(labels: Record<string, string>, term: string): boolean {
  const set = /^(\S+)\s+(in|notin)\s*\((.*)\)$/.exec(term);
  if (set) {
    const value = labels[set[1]];
    const values = set[3].split(',').map(v => v.trim());
    if (set[2] === 'in') return value !== undefined && values.includes(value);
    return value === undefined || !values.includes(value);
  }
  if (term.startsWith('!')) return labels[term.slice(1).trim()] === undefined;
  const op = /^([^!=\s]+)\s*(!=|==|=)\s*(.*)$/.exec(term);
  if (!op) return labels[term] !== undefined;
  const value = labels[op[1]];
  return op[2] === '!=' ? value !== op[3] : value === op[3];
}

/**
 * Whether labels match a label selector as the API server reads it: `k=v`, `k==v`, `k!=v`, `k`,
 * `!k`, `k in (a,b)` and `k notin (a,b)`, comma-separated (all must hold).
 *
 * @public
 */
export function matchesLabelSelector(
  labels: Record<string, string> | undefined,
  selector: string | undefined,
): boolean {
  if (!selector) return true;
  return selectorTerms(selector).every(term => matchesTerm(labels ?? {}, term));
}

/** How the API server names a kind in its answers. */
interface KindNames {
  /** In NotFound, AlreadyExists and resourceVersion Conflict messages. */
  resource: string;
  /** In the Conflict message of a UID precondition. */
  kind: string;
}
const CLUSTERS: KindNames = {
  resource: 'clusters.infrared.darkshift.io',
  kind: 'Cluster.infrared.darkshift.io',
};
const SECRETS: KindNames = { resource: 'secrets', kind: 'Secret' };

/** The API server's error answers, word for word (the contract suite holds the fake to them). */
const answer = {
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

function toBase64(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64');
}

/**
 * An in-memory stand-in for the management cluster's API: resourceVersions and their conflicts, UID
 * preconditions, the status subresource, label selectors, AlreadyExists/NotFound/Conflict answers
 * worded as the API server words them, and ownerReference garbage collection on delete (at once,
 * where the real collector takes a moment). For unit tests; the ManagementApi contract suite runs the
 * same cases against it and against the real API server.
 *
 * @public
 */
export class InMemoryManagementApi implements ManagementApi {
  readonly counter = new RequestCounter();
  readonly clusters: ClusterApi;
  readonly secrets: SecretApi;
  private version = 1;
  readonly clusterStore = new Map<string, ClusterResource>();
  readonly secretStore = new Map<string, SecretObject>();
  /** Set to make the next call of a method fail, e.g. `failNext.set('clusters.create', error)`. */
  readonly failNext = new Map<string, Error>();

  constructor() {
    // eslint-disable-next-line consistent-this
    const self = this;
    const tick = () => String(++self.version);
    const check = (method: string, verb: string) => {
      self.counter.count(verb);
      const failure = self.failNext.get(method);
      if (failure) {
        self.failNext.delete(method);
        throw failure;
      }
    };
    /** The object `what` is about, after its preconditions hold. */
    const existing = <T extends { metadata: ObjectMeta }>(
      what: string,
      k: KindNames,
      name: string,
      current: T | undefined,
      pre: { uid?: string; resourceVersion?: string } = {},
    ): T => {
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
    };
    /** The garbage collector: a dependent goes with its last owner, else loses the owner's reference. */
    const collect = (ownerUid: string | undefined) => {
      for (const [key, s] of self.secretStore) {
        const refs = s.metadata.ownerReferences ?? [];
        if (!ownerUid || !refs.some(r => r.uid === ownerUid)) continue;
        const left = refs.filter(r => r.uid !== ownerUid);
        if (!left.length) {
          self.secretStore.delete(key);
          continue;
        }
        self.secretStore.set(key, {
          ...s,
          metadata: {
            ...s.metadata,
            ownerReferences: left,
            resourceVersion: tick(),
          },
        });
      }
    };
    const newMeta = (meta: ObjectMeta): ObjectMeta => ({
      ...clone(meta),
      uid: randomUUID(),
      resourceVersion: tick(),
      creationTimestamp: new Date().toISOString(),
    });
    const secretKey = (ns: string, name: string) => `${ns}/${name}`;
    const normalizeSecret = (secret: SecretObject): SecretObject => {
      const data = { ...(secret.data ?? {}) };
      for (const [k, v] of Object.entries(secret.stringData ?? {})) {
        data[k] = toBase64(v);
      }
      const { stringData: _ignored, ...rest } = clone(secret);
      return { ...rest, type: secret.type ?? 'Opaque', data };
    };

    this.clusters = {
      async list() {
        check('clusters.list', 'LIST');
        return [...self.clusterStore.values()]
          .sort((a, b) => a.metadata.name.localeCompare(b.metadata.name))
          .map(clone);
      },
      async get(name) {
        check('clusters.get', 'GET');
        const c = self.clusterStore.get(name);
        return c && clone(c);
      },
      async create(cluster) {
        check('clusters.create', 'POST');
        const name = cluster.metadata.name;
        if (self.clusterStore.has(name)) {
          throw answer.alreadyExists(`CREATE cluster ${name}`, CLUSTERS, name);
        }
        const { status: _status, ...rest } = clone(cluster);
        const stored: ClusterResource = {
          ...rest,
          metadata: { ...newMeta(cluster.metadata), generation: 1 },
        };
        self.clusterStore.set(name, stored);
        return clone(stored);
      },
      async delete(name, options = {}) {
        check('clusters.delete', 'DELETE');
        const c = existing(
          `DELETE cluster ${name}`,
          CLUSTERS,
          name,
          self.clusterStore.get(name),
          options,
        );
        self.clusterStore.delete(name);
        collect(c.metadata.uid);
      },
      async replaceStatus(cluster) {
        check('clusters.replaceStatus', 'PUT');
        const name = cluster.metadata.name;
        const current = existing(
          `UPDATE cluster ${name} status`,
          CLUSTERS,
          name,
          self.clusterStore.get(name),
          cluster.metadata,
        );
        const stored: ClusterResource = {
          ...current,
          metadata: { ...current.metadata, resourceVersion: tick() },
          status: clone(cluster.status ?? {}),
        };
        self.clusterStore.set(name, stored);
        return clone(stored);
      },
      async patchStatus(name, status, resourceVersion) {
        check('clusters.patchStatus', 'PATCH');
        const current = existing(
          `PATCH cluster ${name} status`,
          CLUSTERS,
          name,
          self.clusterStore.get(name),
          { resourceVersion },
        );
        const merged: ClusterStatus = { ...current.status };
        for (const [k, v] of Object.entries(clone(status))) {
          if (v === null) delete (merged as any)[k];
          else (merged as any)[k] = v;
        }
        const stored = {
          ...current,
          metadata: { ...current.metadata, resourceVersion: tick() },
          status: merged,
        };
        self.clusterStore.set(name, stored);
        return clone(stored);
      },
      async patchMetadata(name, metadata, resourceVersion) {
        check('clusters.patchMetadata', 'PATCH');
        const current = existing(
          `PATCH cluster ${name}`,
          CLUSTERS,
          name,
          self.clusterStore.get(name),
          { resourceVersion },
        );
        const stored = {
          ...current,
          metadata: {
            ...current.metadata,
            labels: mergeMap(current.metadata.labels, metadata.labels),
            annotations: mergeMap(
              current.metadata.annotations,
              metadata.annotations,
            ),
            resourceVersion: tick(),
          },
        };
        self.clusterStore.set(name, stored);
        return clone(stored);
      },
    };

    this.secrets = {
      async get(namespace, name) {
        check('secrets.get', 'GET');
        const s = self.secretStore.get(secretKey(namespace, name));
        return s && clone(s);
      },
      async list(namespace, labelSelector) {
        check('secrets.list', 'LIST');
        return [...self.secretStore.values()]
          .filter(s => s.metadata.namespace === namespace)
          .filter(s => matchesLabelSelector(s.metadata.labels, labelSelector))
          .map(clone);
      },
      async create(secret) {
        check('secrets.create', 'POST');
        const { namespace = 'default', name } = secret.metadata;
        const key = secretKey(namespace, name);
        if (self.secretStore.has(key)) {
          throw answer.alreadyExists(`CREATE secret ${key}`, SECRETS, name);
        }
        const stored = normalizeSecret({
          ...secret,
          metadata: { ...newMeta(secret.metadata), namespace },
        });
        self.secretStore.set(key, stored);
        return clone(stored);
      },
      async replace(secret) {
        check('secrets.replace', 'PUT');
        const { namespace = 'default', name } = secret.metadata;
        const key = secretKey(namespace, name);
        const current = existing(
          `UPDATE secret ${key}`,
          SECRETS,
          name,
          self.secretStore.get(key),
          { resourceVersion: secret.metadata.resourceVersion },
        );
        const stored = normalizeSecret({
          ...secret,
          metadata: {
            ...clone(secret.metadata),
            namespace,
            uid: current.metadata.uid,
            creationTimestamp: current.metadata.creationTimestamp,
            resourceVersion: tick(),
          },
        });
        self.secretStore.set(key, stored);
        return clone(stored);
      },
      async patchMetadata(namespace, name, metadata, resourceVersion) {
        check('secrets.patchMetadata', 'PATCH');
        const key = secretKey(namespace, name);
        const current = existing(
          `PATCH secret ${key}`,
          SECRETS,
          name,
          self.secretStore.get(key),
          { resourceVersion },
        );
        const stored: SecretObject = {
          ...current,
          metadata: {
            ...current.metadata,
            labels: mergeMap(current.metadata.labels, metadata.labels),
            ownerReferences: metadata.ownerReferences
              ? (clone(metadata.ownerReferences) as OwnerReference[])
              : current.metadata.ownerReferences,
            resourceVersion: tick(),
          },
        };
        self.secretStore.set(key, stored);
        return clone(stored);
      },
      async delete(namespace, name, options = {}) {
        check('secrets.delete', 'DELETE');
        const key = secretKey(namespace, name);
        existing(
          `DELETE secret ${key}`,
          SECRETS,
          name,
          self.secretStore.get(key),
          options,
        );
        self.secretStore.delete(key);
      },
    };
  }
}

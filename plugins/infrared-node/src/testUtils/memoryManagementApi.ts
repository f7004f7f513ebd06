import { randomUUID } from 'node:crypto';
import type {
  ClusterResource,
  ClusterStatus,
  ObjectMeta,
  OwnerReference,
  SecretObject,
} from '@internal/plugin-infrared-common';
import { RequestCounter } from '../kube/counter';
import { KubeApiError } from '../kube/errors';
import type { ClusterApi, ManagementApi, SecretApi } from '../kube/types';

const clone = <T>(v: T): T => structuredClone(v);

/** Matches `a=b,c` style equality/existence selectors, the only kind the plugins use. */
export function matchesLabelSelector(
  labels: Record<string, string> | undefined,
  selector: string | undefined,
): boolean {
  if (!selector) return true;
  return selector
    .split(',')
    .map(s => s.trim())
    .filter(Boolean)
    .every(term => {
      const [key, value] = term.split(/==?/);
      if (value === undefined) return labels?.[key] !== undefined;
      return labels?.[key] === value;
    });
}

function toBase64(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64');
}

/**
 * An in-memory stand-in for the management cluster's API: resourceVersions and their conflicts,
 * generation bumps on spec changes, the status subresource, AlreadyExists/NotFound and ownerReference
 * garbage collection on delete. For unit tests; the integration tests use a real API server.
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
    const notFound = (what: string) =>
      new KubeApiError(404, 'NotFound', `${what}: not found`);
    const precondition = (
      what: string,
      current: ObjectMeta,
      resourceVersion?: string,
    ) => {
      if (resourceVersion && resourceVersion !== current.resourceVersion) {
        throw new KubeApiError(
          409,
          'Conflict',
          `${what}: the object has been modified; please apply your changes to the latest version and try again`,
        );
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
          throw new KubeApiError(
            409,
            'AlreadyExists',
            `CREATE cluster ${name}: clusters.infrared.darkshift.io "${name}" already exists`,
          );
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
        const c = self.clusterStore.get(name);
        if (!c || (options.uid && options.uid !== c.metadata.uid)) {
          throw notFound(`DELETE cluster ${name}`);
        }
        self.clusterStore.delete(name);
        // The garbage collector: dependents of the deleted uid go too.
        for (const [key, s] of self.secretStore) {
          if (s.metadata.ownerReferences?.some(r => r.uid === c.metadata.uid)) {
            self.secretStore.delete(key);
          }
        }
      },
      async replaceStatus(cluster) {
        check('clusters.replaceStatus', 'PUT');
        const name = cluster.metadata.name;
        const current = self.clusterStore.get(name);
        if (!current) throw notFound(`UPDATE cluster ${name} status`);
        precondition(
          `UPDATE cluster ${name} status`,
          current.metadata,
          cluster.metadata.resourceVersion,
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
        const current = self.clusterStore.get(name);
        if (!current) throw notFound(`PATCH cluster ${name} status`);
        precondition(
          `PATCH cluster ${name} status`,
          current.metadata,
          resourceVersion,
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
        const current = self.clusterStore.get(name);
        if (!current) throw notFound(`PATCH cluster ${name}`);
        precondition(
          `PATCH cluster ${name}`,
          current.metadata,
          resourceVersion,
        );
        const mergeMap = (
          a: Record<string, string> | undefined,
          b: Record<string, string | null> | undefined,
        ) => {
          if (!b) return a;
          const out = { ...a };
          for (const [k, v] of Object.entries(b)) {
            if (v === null) delete out[k];
            else out[k] = v;
          }
          return out;
        };
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
          throw new KubeApiError(
            409,
            'AlreadyExists',
            `CREATE secret ${key}: secrets "${name}" already exists`,
          );
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
        const current = self.secretStore.get(key);
        if (!current) throw notFound(`UPDATE secret ${key}`);
        precondition(
          `UPDATE secret ${key}`,
          current.metadata,
          secret.metadata.resourceVersion,
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
        const current = self.secretStore.get(key);
        if (!current) throw notFound(`PATCH secret ${key}`);
        precondition(`PATCH secret ${key}`, current.metadata, resourceVersion);
        const stored: SecretObject = {
          ...current,
          metadata: {
            ...current.metadata,
            labels: metadata.labels
              ? { ...current.metadata.labels, ...metadata.labels }
              : current.metadata.labels,
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
        const current = self.secretStore.get(key);
        if (!current || (options.uid && options.uid !== current.metadata.uid)) {
          throw notFound(`DELETE secret ${key}`);
        }
        self.secretStore.delete(key);
      },
    };
  }
}

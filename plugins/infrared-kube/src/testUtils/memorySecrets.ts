import type {
  OwnerReference,
  SecretObject,
} from '@infrared-clusters/plugin-infrared-common';
import type { SecretApi } from '../types';
import { matchesLabelSelector } from './labelSelector';
import {
  answer,
  clone,
  mergeMap,
  SECRETS,
  type MemoryStore,
} from './memoryStore';

const secretKey = (ns: string, name: string) => `${ns}/${name}`;

/** A Secret as the API server stores it: `stringData` folded into base64 `data`, type Opaque by default. */
function normalizeSecret(secret: SecretObject): SecretObject {
  const data = { ...(secret.data ?? {}) };
  for (const [k, v] of Object.entries(secret.stringData ?? {})) {
    data[k] = Buffer.from(v, 'utf8').toString('base64');
  }
  const { stringData: _ignored, ...rest } = clone(secret);
  return { ...rest, type: secret.type ?? 'Opaque', data };
}

/** Reading and creating Secrets. */
function secretReadsAndCreate(
  store: MemoryStore,
): Pick<SecretApi, 'get' | 'list' | 'create'> {
  return {
    async get(namespace, name) {
      store.check('secrets.get', 'GET');
      const s = store.secrets.get(secretKey(namespace, name));
      return s && clone(s);
    },
    async list(namespace, labelSelector) {
      store.check('secrets.list', 'LIST');
      return [...store.secrets.values()]
        .filter(s => s.metadata.namespace === namespace)
        .filter(s => matchesLabelSelector(s.metadata.labels, labelSelector))
        .map(clone);
    },
    async create(secret) {
      store.check('secrets.create', 'POST');
      const { namespace = 'default', name } = secret.metadata;
      const key = secretKey(namespace, name);
      if (store.secrets.has(key)) {
        throw answer.alreadyExists(`CREATE secret ${key}`, SECRETS, name);
      }
      const stored = normalizeSecret({
        ...secret,
        metadata: { ...store.newMeta(secret.metadata), namespace },
      });
      store.secrets.set(key, stored);
      return clone(stored);
    },
  };
}

/** Replacing, patching and deleting Secrets, under their preconditions. */
function secretUpdates(
  store: MemoryStore,
): Pick<SecretApi, 'replace' | 'patchMetadata' | 'delete'> {
  return {
    async replace(secret) {
      store.check('secrets.replace', 'PUT');
      const { namespace = 'default', name } = secret.metadata;
      const key = secretKey(namespace, name);
      const current = store.existing(
        `UPDATE secret ${key}`,
        SECRETS,
        name,
        store.secrets.get(key),
        { resourceVersion: secret.metadata.resourceVersion },
      );
      const stored = normalizeSecret({
        ...secret,
        metadata: {
          ...clone(secret.metadata),
          namespace,
          uid: current.metadata.uid,
          creationTimestamp: current.metadata.creationTimestamp,
          resourceVersion: store.tick(),
        },
      });
      store.secrets.set(key, stored);
      return clone(stored);
    },
    async patchMetadata(namespace, name, metadata, resourceVersion) {
      store.check('secrets.patchMetadata', 'PATCH');
      const key = secretKey(namespace, name);
      const current = store.existing(
        `PATCH secret ${key}`,
        SECRETS,
        name,
        store.secrets.get(key),
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
          resourceVersion: store.tick(),
        },
      };
      store.secrets.set(key, stored);
      return clone(stored);
    },
    async delete(namespace, name, options = {}) {
      store.check('secrets.delete', 'DELETE');
      const key = secretKey(namespace, name);
      store.existing(
        `DELETE secret ${key}`,
        SECRETS,
        name,
        store.secrets.get(key),
        options,
      );
      store.secrets.delete(key);
    },
  };
}

/** The Secret API of the in-memory management API, over `store`. */
export function memorySecretApi(store: MemoryStore): SecretApi {
  return { ...secretReadsAndCreate(store), ...secretUpdates(store) };
}

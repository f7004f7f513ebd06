import type { V1ObjectMeta, V1Secret } from '@kubernetes/client-node';
import type {
  ObjectMeta,
  SecretObject,
} from '@infrared-clusters/plugin-infrared-common';

function iso(d: unknown): string | undefined {
  if (d instanceof Date) return d.toISOString();
  return typeof d === 'string' ? d : undefined;
}

/**
 * Plain JSON metadata, without managedFields (an update that omits them keeps the server's).
 *
 * @public
 */
export function plainMeta(
  m: V1ObjectMeta = {},
): ObjectMeta & { finalizers?: string[] } {
  const out: ObjectMeta & { finalizers?: string[] } = { name: m.name ?? '' };
  if (m.namespace) out.namespace = m.namespace;
  if (m.uid) out.uid = m.uid;
  if (m.resourceVersion) out.resourceVersion = m.resourceVersion;
  if (m.generation !== undefined) out.generation = m.generation;
  const created = iso(m.creationTimestamp);
  if (created) out.creationTimestamp = created;
  const deleted = iso(m.deletionTimestamp);
  if (deleted) out.deletionTimestamp = deleted;
  if (m.labels) out.labels = { ...m.labels };
  if (m.annotations) out.annotations = { ...m.annotations };
  if (m.ownerReferences?.length) {
    out.ownerReferences = m.ownerReferences.map(r => ({
      apiVersion: r.apiVersion,
      kind: r.kind,
      name: r.name,
      uid: r.uid,
      ...(r.controller !== undefined ? { controller: r.controller } : {}),
      ...(r.blockOwnerDeletion !== undefined
        ? { blockOwnerDeletion: r.blockOwnerDeletion }
        : {}),
    }));
  }
  if (m.finalizers?.length) out.finalizers = [...m.finalizers];
  return out;
}

/**
 * A Secret as plain JSON: its metadata as `plainMeta` gives it, type (Opaque when unset), data, immutable.
 *
 * @public
 */
export function plainSecret(
  s: V1Secret,
): SecretObject & { immutable?: boolean } {
  const out: SecretObject & { immutable?: boolean } = {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: plainMeta(s.metadata),
    type: s.type ?? 'Opaque',
    data: { ...(s.data ?? {}) },
  };
  if (s.immutable !== undefined) out.immutable = s.immutable;
  return out;
}

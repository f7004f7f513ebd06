/**
 * The identity of a Kubernetes object that can own others.
 *
 * @public
 */
export interface OwnerObject {
  apiVersion: string;
  kind: string;
  metadata: { name?: string; uid?: string };
}

/** @public */
export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller: boolean;
  blockOwnerDeletion: boolean;
}

/**
 * The ownerReference that makes Kubernetes' garbage collector delete a dependent
 * (a kubeconfig or Argo CD Secret) when its owner (a Cluster) is deleted.
 *
 * @public
 */
export function controllerReferenceTo(owner: OwnerObject): OwnerReference {
  const { name, uid } = owner.metadata;
  if (!name || !uid) {
    throw new Error(
      `cannot reference ${owner.kind} ${
        name ?? '<unnamed>'
      }: it has no uid yet (read it back from the API server first)`,
    );
  }
  return {
    apiVersion: owner.apiVersion,
    kind: owner.kind,
    name,
    uid,
    controller: true,
    blockOwnerDeletion: true,
  };
}

/**
 * Whether `refs` already hold a reference to `owner` (by uid, which survives nothing else).
 *
 * @public
 */
export function isOwnedBy(
  refs: Array<{ uid: string }> | undefined,
  owner: OwnerObject,
): boolean {
  return (refs ?? []).some(ref => ref.uid === owner.metadata.uid);
}

import type {
  ClusterResource,
  ClusterStatus,
  ObjectMeta,
  OwnerReference,
  SecretObject,
} from '@infrared-clusters/plugin-infrared-common';
import type { RequestCounter } from './counter';

/**
 * Cluster custom resources (cluster-scoped) on the management cluster.
 *
 * @public
 */
export interface ClusterApi {
  list(): Promise<ClusterResource[]>;
  /** undefined when there is no such Cluster. */
  get(name: string): Promise<ClusterResource | undefined>;
  /** Throws KubeApiError 409 AlreadyExists when the name is taken. */
  create(cluster: ClusterResource): Promise<ClusterResource>;
  /** Throws KubeApiError 404 when absent; with `uid`, only deletes that incarnation. */
  delete(name: string, options?: { uid?: string }): Promise<void>;
  /**
   * Replaces the status through the status subresource. `metadata.resourceVersion` is the
   * precondition: a KubeApiError 409 Conflict when the Cluster changed since it was read.
   */
  replaceStatus(cluster: ClusterResource): Promise<ClusterResource>;
  /** Merge-patches the status through the status subresource, optionally with a resourceVersion precondition. */
  patchStatus(
    name: string,
    status: Partial<ClusterStatus>,
    resourceVersion?: string,
  ): Promise<ClusterResource>;
  /** Merge-patches labels and annotations (a null value removes a key). */
  patchMetadata(
    name: string,
    metadata: Pick<ObjectMeta, 'labels' | 'annotations'>,
    resourceVersion?: string,
  ): Promise<ClusterResource>;
}

/**
 * Secrets, namespaced. Values come back base64 in `data` (read them with `secretStrings`).
 *
 * @public
 */
export interface SecretApi {
  get(namespace: string, name: string): Promise<SecretObject | undefined>;
  list(namespace: string, labelSelector?: string): Promise<SecretObject[]>;
  create(secret: SecretObject): Promise<SecretObject>;
  /** Replaces a Secret; `metadata.resourceVersion`, when set, is the precondition. */
  replace(secret: SecretObject): Promise<SecretObject>;
  /** Merge-patches labels and the whole ownerReferences list, optionally with a precondition. */
  patchMetadata(
    namespace: string,
    name: string,
    metadata: {
      labels?: Record<string, string>;
      ownerReferences?: OwnerReference[];
    },
    resourceVersion?: string,
  ): Promise<SecretObject>;
  delete(
    namespace: string,
    name: string,
    options?: { uid?: string },
  ): Promise<void>;
}

/**
 * What the Infrared backend reads and writes on the management cluster.
 *
 * @public
 */
export interface ManagementApi {
  clusters: ClusterApi;
  secrets: SecretApi;
  /** Every request sent through `clusters` and `secrets`. */
  counter: RequestCounter;
}

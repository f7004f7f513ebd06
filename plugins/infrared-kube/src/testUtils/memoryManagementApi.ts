import type {
  ClusterResource,
  SecretObject,
} from '@infrared-clusters/plugin-infrared-common';
import type { RequestCounter } from '../counter';
import type { ClusterApi, ManagementApi, SecretApi } from '../types';
import { memoryClusterApi } from './memoryClusters';
import { memorySecretApi } from './memorySecrets';
import { MemoryStore } from './memoryStore';

export { matchesLabelSelector } from './labelSelector';

/**
 * An in-memory stand-in for the management cluster's API: resourceVersions and their conflicts, UID
 * preconditions, the status subresource, label selectors, AlreadyExists/NotFound/Conflict answers
 * worded as the API server words them, and ownerReference garbage collection on delete (at once,
 * where the real collector takes a moment). For unit tests; the ManagementApi contract suite runs the
 * same cases against it and against the real API server. Its kinds are modules of their own
 * (memoryClusters, memorySecrets) over one store (memoryStore).
 *
 * @public
 */
export class InMemoryManagementApi implements ManagementApi {
  readonly counter: RequestCounter;
  readonly clusters: ClusterApi;
  readonly secrets: SecretApi;
  readonly clusterStore: Map<string, ClusterResource>;
  readonly secretStore: Map<string, SecretObject>;
  /** Set to make the next call of a method fail, e.g. `failNext.set('clusters.create', error)`. */
  readonly failNext: Map<string, Error>;

  constructor() {
    const store = new MemoryStore();
    this.counter = store.counter;
    this.clusterStore = store.clusters;
    this.secretStore = store.secrets;
    this.failNext = store.failNext;
    this.clusters = memoryClusterApi(store);
    this.secrets = memorySecretApi(store);
  }
}

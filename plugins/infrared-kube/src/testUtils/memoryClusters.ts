import type {
  ClusterResource,
  ClusterStatus,
} from '@infrared-clusters/plugin-infrared-common';
import type { ClusterApi } from '../types';
import {
  answer,
  clone,
  CLUSTERS,
  mergeMap,
  type MemoryStore,
} from './memoryStore';

/** Reading, creating and deleting Clusters (a delete collects their dependents). */
function clusterLifecycle(
  store: MemoryStore,
): Pick<ClusterApi, 'list' | 'get' | 'create' | 'delete'> {
  return {
    async list() {
      store.check('clusters.list', 'LIST');
      return [...store.clusters.values()]
        .sort((a, b) => a.metadata.name.localeCompare(b.metadata.name))
        .map(clone);
    },
    async get(name) {
      store.check('clusters.get', 'GET');
      const c = store.clusters.get(name);
      return c && clone(c);
    },
    async create(cluster) {
      store.check('clusters.create', 'POST');
      const name = cluster.metadata.name;
      if (store.clusters.has(name)) {
        throw answer.alreadyExists(`CREATE cluster ${name}`, CLUSTERS, name);
      }
      const { status: _status, ...rest } = clone(cluster);
      const stored: ClusterResource = {
        ...rest,
        metadata: { ...store.newMeta(cluster.metadata), generation: 1 },
      };
      store.clusters.set(name, stored);
      return clone(stored);
    },
    async delete(name, options = {}) {
      store.check('clusters.delete', 'DELETE');
      const c = store.existing(
        `DELETE cluster ${name}`,
        CLUSTERS,
        name,
        store.clusters.get(name),
        options,
      );
      store.clusters.delete(name);
      store.collect(c.metadata.uid);
    },
  };
}

/** Writing a Cluster's status and metadata, under its resourceVersion. */
function clusterUpdates(
  store: MemoryStore,
): Pick<ClusterApi, 'replaceStatus' | 'patchStatus' | 'patchMetadata'> {
  return {
    async replaceStatus(cluster) {
      store.check('clusters.replaceStatus', 'PUT');
      const name = cluster.metadata.name;
      const current = store.existing(
        `UPDATE cluster ${name} status`,
        CLUSTERS,
        name,
        store.clusters.get(name),
        cluster.metadata,
      );
      const stored: ClusterResource = {
        ...current,
        metadata: { ...current.metadata, resourceVersion: store.tick() },
        status: clone(cluster.status ?? {}),
      };
      store.clusters.set(name, stored);
      return clone(stored);
    },
    async patchStatus(name, status, resourceVersion) {
      store.check('clusters.patchStatus', 'PATCH');
      const current = store.existing(
        `PATCH cluster ${name} status`,
        CLUSTERS,
        name,
        store.clusters.get(name),
        { resourceVersion },
      );
      const merged: ClusterStatus = { ...current.status };
      for (const [k, v] of Object.entries(clone(status))) {
        if (v === null) delete (merged as any)[k];
        else (merged as any)[k] = v;
      }
      const stored = {
        ...current,
        metadata: { ...current.metadata, resourceVersion: store.tick() },
        status: merged,
      };
      store.clusters.set(name, stored);
      return clone(stored);
    },
    async patchMetadata(name, metadata, resourceVersion) {
      store.check('clusters.patchMetadata', 'PATCH');
      const current = store.existing(
        `PATCH cluster ${name}`,
        CLUSTERS,
        name,
        store.clusters.get(name),
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
          resourceVersion: store.tick(),
        },
      };
      store.clusters.set(name, stored);
      return clone(stored);
    },
  };
}

/** The Cluster API of the in-memory management API, over `store`. */
export function memoryClusterApi(store: MemoryStore): ClusterApi {
  return { ...clusterLifecycle(store), ...clusterUpdates(store) };
}

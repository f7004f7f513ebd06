import {
  clusterView,
  type ClusterResource,
  type ClusterView,
} from '@infrared-clusters/plugin-infrared-common';

/** The Clusters a watch keeps current (WatchedCache from watchClusters fits). */
export interface WatchedClusters {
  /** Whether the first LIST is in: before it, the cache knows nothing. */
  readonly isSynced: boolean;
  /** Grows whenever the watched list changes; without it the views are made again per list. */
  readonly version?: number;
  list(): ClusterResource[];
  /** One Cluster by name, without a list (WatchedCache has it). */
  get?(name: string): ClusterResource | undefined;
}

/** How long a write this process made is shown before the watch has brought it. */
const OVERLAY_MS = 10_000;

interface Overlay {
  /** The Cluster as the write returned it; undefined for a removal. */
  resource?: ClusterResource;
  /** The resourceVersion the watch showed for the name when the write was made. */
  seenVersion?: string;
  at: number;
}

/**
 * The Clusters page's list from a watch instead of a LIST per request (issue 17: GET /v1/clusters at
 * 1,000 Clusters). Views are made once per resourceVersion. The writes of this process are laid over
 * the watch until it has brought them, so a caller that registers or removes a Cluster and lists
 * next sees its own write, as a LIST would show it.
 */
export class ClusterListCache {
  private readonly memo = new WeakMap<ClusterResource, ClusterView>();
  private readonly overlays = new Map<string, Overlay>();
  /** The last list, while the watch is at that version and nothing is laid over it. */
  private listed?: { version: number; views: ClusterView[] };

  constructor(
    private readonly watched: WatchedClusters,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Every Cluster as a view; undefined until the watch has synced (list live then). The same
   * array while the watch is unchanged, so GET /v1/clusters can keep its sorted pages per list
   * (issue 25: 10,000 views filtered and sorted again for every page of 100). Read-only.
   */
  list(): ClusterView[] | undefined {
    if (this.watched.isSynced) this.dropCaughtUp();
    const version = this.watched.version;
    if (
      version !== undefined &&
      this.overlays.size === 0 &&
      this.listed?.version === version
    ) {
      return this.listed.views;
    }
    const views = this.resources()?.map(resource => this.viewOf(resource));
    this.listed =
      views && version !== undefined && this.overlays.size === 0
        ? { version, views }
        : undefined;
    return views;
  }

  /** Every Cluster as the watch has it, with this process's writes; undefined until synced. */
  resources(): ClusterResource[] | undefined {
    if (!this.watched.isSynced) return undefined;
    this.dropCaughtUp();
    // nothing laid over the watch: its list as it is, no copy by name (a POST at 10,000 made one)
    if (this.overlays.size === 0) return this.watched.list();
    const byName = new Map<string, ClusterResource>();
    for (const resource of this.watched.list()) {
      byName.set(resource.metadata.name, resource);
    }
    for (const [name, overlay] of this.overlays) {
      const watchedVersion = byName.get(name)?.metadata.resourceVersion;
      if (
        watchedVersion !== overlay.seenVersion ||
        this.now() - overlay.at > OVERLAY_MS
      ) {
        this.overlays.delete(name); // the watch has caught up (or gave up)
      } else if (overlay.resource) {
        byName.set(name, overlay.resource);
      } else {
        byName.delete(name);
      }
    }
    return [...byName.values()];
  }

  /** A Cluster this process just created. */
  created(resource: ClusterResource): void {
    this.overlay(resource.metadata.name, resource);
  }

  /** A Cluster this process just deleted. */
  removed(name: string): void {
    this.overlay(name, undefined);
  }

  private overlay(name: string, resource: ClusterResource | undefined) {
    if (!this.watched.isSynced) return;
    const seen = this.watchedOne(name)?.metadata.resourceVersion;
    this.overlays.set(name, { resource, seenVersion: seen, at: this.now() });
  }

  private watchedOne(name: string): ClusterResource | undefined {
    if (this.watched.get) return this.watched.get(name);
    return this.watched.list().find(r => r.metadata.name === name);
  }

  /** Forgets the writes the watch has brought (or that waited too long for it). */
  private dropCaughtUp(): void {
    for (const [name, overlay] of this.overlays) {
      if (
        this.watchedOne(name)?.metadata.resourceVersion !==
          overlay.seenVersion ||
        this.now() - overlay.at > OVERLAY_MS
      ) {
        this.overlays.delete(name);
      }
    }
  }

  private viewOf(resource: ClusterResource): ClusterView {
    let view = this.memo.get(resource);
    if (!view) {
      view = clusterView(resource);
      this.memo.set(resource, view);
    }
    return view;
  }
}

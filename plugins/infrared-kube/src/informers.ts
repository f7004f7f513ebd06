import {
  ListWatch,
  Watch,
  type KubeConfig,
  type KubernetesListObject,
  type KubernetesObject,
  type V1Secret,
} from '@kubernetes/client-node';
import {
  CLUSTER_PLURAL,
  INFRARED_GROUP,
  INFRARED_VERSION,
  type ClusterResource,
  type SecretObject,
} from '@infrared-clusters/plugin-infrared-common';
import type { KubeClient } from './client';
import { plainSecret } from './meta';
import { listAllPages } from './pagedList';

/** Restarts after a failed LIST or watch wait this long, then longer, up to the last. */
const RESTART_BACKOFF_MS = [500, 1000, 2000, 5000, 10_000, 30_000];

/** @public */
export interface WatchedCacheOptions {
  /** Told when a LIST or watch fails (the cache keeps its objects and restarts after a backoff). */
  onError?: (error: unknown) => void;
  /** Told after every change the watch brings (and after each LIST). */
  onChange?: () => void;
  /** Only the objects with these labels, in the LIST and the watch alike (e.g. `a=b`). */
  labelSelector?: string;
}

/**
 * client-node's watch, with each object it brings converted before the informer keeps it: the
 * cache holds only the view (issue 25: a Cluster's or Secret's managedFields are about 100 small
 * objects each, more than the rest of it, and a view made lazily kept both).
 */
class ConvertingWatch<T, V> extends Watch {
  constructor(config: KubeConfig, private readonly convert: (object: T) => V) {
    super(config);
  }

  watch(
    path: string,
    queryParams: Record<string, string | number | boolean | undefined>,
    callback: (phase: string, apiObj: any, watchObj?: any) => void,
    done: (err: any) => void,
  ): Promise<AbortController> {
    return super.watch(
      path,
      queryParams,
      (phase, object, watchObject) =>
        callback(
          phase,
          phase === 'ADDED' || phase === 'MODIFIED' || phase === 'DELETED'
            ? this.convert(object)
            : object,
          watchObject,
        ),
      done,
    );
  }
}

/**
 * Objects kept current by one LIST and a watch from its resourceVersion (client-node's informer on
 * the client's KubeConfig); the LIST goes through the KubeClient, so it is counted and bounded. A
 * watch the server ends is resumed from the last resourceVersion without a new LIST; one that
 * fails is restarted after a backoff (from that resourceVersion, or with a new LIST on 410 Gone).
 * Readers get what the cache holds: no request.
 *
 * @public
 */
export class WatchedCache<T extends KubernetesObject, V> {
  /** Watch connections made (LIST included), in all: tests and benches read it. */
  connects = 0;
  private readonly informer: ListWatch<V & KubernetesObject>;
  private stopped = false;
  private failures = 0;
  /** Errors reported since the cache was made: a start that saw none is a watch running again. */
  private errors = 0;
  private broken = false;
  private restartTimer?: ReturnType<typeof setTimeout>;
  private resolveSynced!: () => void;
  private syncedOnce = false;
  private changes = 0;
  /** Resolves once the first LIST is in the cache. */
  readonly synced: Promise<void>;

  constructor(
    client: KubeClient,
    path: string,
    list: () => Promise<KubernetesListObject<T>>,
    private readonly convert: (object: T) => V,
    private readonly options: WatchedCacheOptions = {},
  ) {
    this.synced = new Promise(resolve => {
      this.resolveSynced = resolve;
    });
    this.informer = new ListWatch<V & KubernetesObject>(
      path,
      new ConvertingWatch<T, V & KubernetesObject>(client.kubeConfig, o =>
        this.keep(o),
      ),
      () => this.relist(list),
      false,
      options.labelSelector,
    );
    this.informer.on('connect', () => {
      this.connects += 1;
    });
    this.informer.on('change', () => {
      this.changes += 1;
      this.options.onChange?.();
    });
    this.informer.on('error', error => {
      if (this.stopped) return; // stop() aborts the watch: not a failure
      this.errors += 1;
      this.broken = true;
      this.options.onError?.(error);
      this.scheduleRestart();
    });
  }

  /** What the cache keeps of an object the server sent: `convert`'s view, made once on receipt. */
  private keep(object: T): V & KubernetesObject {
    return this.convert(object) as V & KubernetesObject;
  }

  private async relist(
    list: () => Promise<KubernetesListObject<T>>,
  ): Promise<KubernetesListObject<V & KubernetesObject>> {
    const listed = await list();
    const answer = { ...listed, items: listed.items.map(o => this.keep(o)) };
    // the informer fills its cache right after this resolves, within the same task
    setImmediate(() => {
      this.failures = 0;
      this.syncedOnce = true;
      this.changes += 1;
      this.resolveSynced();
      this.options.onChange?.();
    });
    return answer;
  }

  /** Starts the LIST and the watch; resolves when the first LIST is in (or failed). */
  async start(): Promise<void> {
    this.stopped = false;
    const errorsBefore = this.errors;
    try {
      // resolves once the watch request is answered (LIST and watch errors are reported, not thrown)
      await this.informer.start();
      if (this.errors === errorsBefore) this.broken = false;
    } catch (error) {
      this.errors += 1;
      this.broken = true;
      this.options.onError?.(error);
      this.scheduleRestart();
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.restartTimer) clearTimeout(this.restartTimer);
    await this.informer.stop();
  }

  /**
   * A number that grows whenever the cache changes (an event, a LIST): what a reader keyed on it
   * built stays right while it is the same.
   */
  get version(): number {
    return this.changes;
  }

  /** Whether the first LIST is in the cache (it stays in while a watch restarts). */
  get isSynced(): boolean {
    return this.syncedOnce;
  }

  /**
   * Whether the cache follows the server now: synced, and its watch running (not failed since it
   * last started). A broken cache keeps its objects, which may be stale, until its restart.
   */
  get isHealthy(): boolean {
    return this.syncedOnce && !this.broken && !this.stopped;
  }

  /** Every object in the cache (of one namespace when given). */
  list(namespace?: string): V[] {
    // a new array each time (client-node's list)
    return this.informer.list(namespace) as V[];
  }

  /** One object from the cache (the same object while the watch did not change it), undefined when it is not there. */
  get(name: string, namespace?: string): V | undefined {
    return this.informer.get(name, namespace);
  }

  private scheduleRestart() {
    if (this.stopped || this.restartTimer) return;
    const delay =
      RESTART_BACKOFF_MS[
        Math.min(this.failures, RESTART_BACKOFF_MS.length - 1)
      ];
    this.failures += 1;
    this.restartTimer = setTimeout(() => {
      this.restartTimer = undefined;
      if (!this.stopped) void this.start();
    }, delay);
    this.restartTimer.unref?.();
  }
}

/** The informer's LIST, page by page: one answer never holds the whole collection. */
async function listForInformer<T extends KubernetesObject>(
  client: KubeClient,
  path: string,
  labelSelector?: string,
): Promise<KubernetesListObject<T>> {
  const list = await listAllPages<T>(client, path, { labelSelector });
  return {
    metadata: { resourceVersion: list.resourceVersion },
    items: list.items,
  };
}

/**
 * Every Cluster on the management cluster, kept current by a watch.
 *
 * @public
 */
export function watchClusters(
  client: KubeClient,
  options?: WatchedCacheOptions,
): WatchedCache<KubernetesObject, ClusterResource> {
  const path = `/apis/${INFRARED_GROUP}/${INFRARED_VERSION}/${CLUSTER_PLURAL}`;
  return new WatchedCache<KubernetesObject, ClusterResource>(
    client,
    path,
    () =>
      listForInformer<KubernetesObject>(client, path, options?.labelSelector),
    withoutManagedFields as (o: KubernetesObject) => ClusterResource,
    options,
  );
}

/**
 * The Secrets of one namespace (with `labelSelector`, only those) as plain JSON (`plainSecret`),
 * kept current by a watch.
 *
 * @public
 */
export function watchSecrets(
  client: KubeClient,
  namespace: string,
  options?: WatchedCacheOptions & {
    /** Keep each Secret's metadata and type only (a reader GETs the data it needs). */
    withoutData?: boolean;
  },
): WatchedCache<V1Secret, SecretObject> {
  const path = `/api/v1/namespaces/${encodeURIComponent(namespace)}/secrets`;
  return new WatchedCache<V1Secret, SecretObject>(
    client,
    path,
    () => listForInformer<V1Secret>(client, path, options?.labelSelector),
    options?.withoutData ? secretWithoutData : plainSecret,
    options,
  );
}

/** A Secret as plainSecret gives it, without its data. */
function secretWithoutData(secret: V1Secret): SecretObject {
  const { data: _data, ...rest } = plainSecret(secret);
  return rest;
}

/**
 * An object without `metadata.managedFields` (server-side apply's record of who set which field):
 * nothing Infrared reads, and most of a watched object's size.
 *
 * @public
 */
export function withoutManagedFields<T extends KubernetesObject>(object: T): T {
  if (!object.metadata?.managedFields) return object;
  const { managedFields: _dropped, ...metadata } = object.metadata;
  return { ...object, metadata };
}

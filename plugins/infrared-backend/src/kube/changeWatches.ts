/**
 * Watches whose only use is to say that something changed: each a WatchedCache (one LIST and a
 * watch, restarted after a failure) whose changes after its first LIST are told to `onChange`.
 * The release gate's and the provisioning Jobs' watches are two sets of them.
 */
import {
  WatchedCache,
  type KubeClient,
} from '@infrared-clusters/infrared-kube';

/** Watches started together: `synced` once every one has its first LIST in. */
export interface ChangeWatches {
  synced: Promise<void>;
  stop(): Promise<void>;
}

export interface ChangeWatch {
  /** What the change is named to `onChange` (a kind, `jobs`, ...). */
  what: string;
  /** The collection's API path, for the watch. */
  path: string;
  /** The LIST the cache starts from. */
  list: () => Promise<unknown>;
}

/** What a change watch keeps of an object: who it is and its version, nothing a reader would need. */
function identityOnly(object: { metadata?: Record<string, unknown> }) {
  const { name, namespace, uid, resourceVersion } = object.metadata ?? {};
  return { metadata: { name, namespace, uid, resourceVersion } };
}

export function startChangeWatches(
  client: KubeClient,
  watched: readonly ChangeWatch[],
  onChange: (what: string) => void,
  onError: (watch: ChangeWatch, error: Error) => void,
): ChangeWatches {
  const caches = watched.map(watch => {
    let listed = false;
    const cache = new WatchedCache<any, unknown>(
      client,
      watch.path,
      watch.list as any,
      identityOnly,
      {
        // the first LIST (its objects, then the LIST itself) is the state a pass starts from
        onChange: () => listed && onChange(watch.what),
        onError: e => onError(watch, e as Error),
      },
    );
    void cache.start();
    // after the first LIST's own notices: synced resolves as they are given
    void cache.synced.then(() => {
      listed = true;
    });
    return cache;
  });
  return {
    synced: Promise.all(caches.map(c => c.synced)).then(() => undefined),
    stop: async () => {
      await Promise.all(caches.map(c => c.stop()));
    },
  };
}

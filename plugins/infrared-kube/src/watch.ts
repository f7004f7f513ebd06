import { Watch, type KubeConfig } from '@kubernetes/client-node';
import type { Agent } from 'node:http';

/**
 * One event of a watch: the object as the server sent it (a Status for ERROR).
 *
 * @public
 */
export interface KubeWatchEvent<T = any> {
  type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';
  object: T;
}

/**
 * How a watch request ended without failing: `ended` (the server's timeout, or the caller's
 * abort), `gone` (410: the resourceVersion left the watch cache) or `forbidden` (403).
 *
 * @public
 */
export type KubeWatchEnd = 'ended' | 'gone' | 'forbidden';

/**
 * Options of {@link watchOnce}.
 *
 * @public
 */
export interface KubeWatchOptions {
  /** Query parameters (labelSelector, fieldSelector, resourceVersion, timeoutSeconds ...). */
  query?: Record<string, string | number | boolean | undefined>;
  /** The Accept header, e.g. PartialObjectMetadata for metadata-only events. */
  accept?: string;
  /** Ends the watch (it resolves `ended`). */
  signal: AbortSignal;
  /** Nothing heard for this long (no event, no bookmark): the connection is taken for dead. */
  idleMs: number;
}

/**
 * The KubeConfig as client-node's Watch uses it, with the Accept header set, and the agent of
 * each request handed to `onAgent` (its sockets, once connected, are unref'd by the caller).
 */
function watchConfig(
  kubeConfig: KubeConfig,
  accept: string | undefined,
  onAgent: (agent: Agent | undefined) => void,
): KubeConfig {
  const config = Object.create(kubeConfig) as KubeConfig;
  config.applyToFetchOptions = async opts => {
    const headers = {
      ...(opts.headers as object),
      ...(accept && { Accept: accept }),
    };
    const init = await kubeConfig.applyToFetchOptions({ ...opts, headers });
    onAgent(init.agent as Agent | undefined);
    return init;
  };
  return config;
}

const failure = (path: string, e: any) =>
  e?.statusCode
    ? new Error(`watch ${path}: HTTP ${e.statusCode}`)
    : (e as Error);

/**
 * One watch request (client-node's Watch on `kubeConfig`) until the server ends it: each event to
 * `onEvent`, the end as a KubeWatchEnd; rejects when the connection fails, goes idle, or the
 * server sends an error event other than 410. Its connection never keeps the process alive.
 *
 * @public
 */
export function watchOnce<T = any>(
  kubeConfig: KubeConfig,
  path: string,
  options: KubeWatchOptions,
  onEvent: (event: KubeWatchEvent<T>) => void,
): Promise<KubeWatchEnd> {
  const { signal, idleMs } = options;
  let agent: Agent | undefined;
  const config = watchConfig(kubeConfig, options.accept, a => {
    agent = a;
  });
  return new Promise<KubeWatchEnd>((resolve, reject) => {
    let settled = false;
    let controller: AbortController | undefined;
    let idle: ReturnType<typeof setTimeout> | undefined;
    /** Takes the abort listener off once the watch has ended. */
    const ended = new AbortController();
    const finish = (end: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(idle);
      ended.abort();
      controller?.abort();
      end();
    };
    const heard = () => {
      clearTimeout(idle);
      idle = setTimeout(
        () => finish(() => reject(new Error('watch idle'))),
        idleMs,
      );
      idle.unref?.();
    };
    signal.addEventListener('abort', () => finish(() => resolve('ended')), {
      once: true,
      signal: ended.signal,
    });
    if (signal.aborted) finish(() => resolve('ended'));
    heard();
    const onWatchEvent = (type: string, object: any) => {
      heard();
      if (type !== 'ERROR') {
        onEvent({ type: type as KubeWatchEvent['type'], object });
      } else if (object?.code === 410) {
        finish(() => resolve('gone'));
      } else {
        finish(() => reject(new Error(object?.message ?? 'watch error event')));
      }
    };
    const onDone = (e: any) => {
      if (!e) finish(() => resolve('ended'));
      else if (e.statusCode === 410) finish(() => resolve('gone'));
      else if (e.statusCode === 403) finish(() => resolve('forbidden'));
      else finish(() => reject(failure(path, e)));
    };
    new Watch(config)
      .watch(path, options.query ?? {}, onWatchEvent, onDone)
      .then(
        c => {
          controller = c;
          if (settled) c.abort();
          for (const socket of Object.values(agent?.sockets ?? {}).flat())
            socket?.unref();
        },
        e => finish(() => reject(failure(path, e))),
      );
  });
}

import type { KubeConfig } from '@kubernetes/client-node';
import { setTimeout as delay } from 'node:timers/promises';
import {
  watchOnce,
  type KubeWatchEvent,
} from '@infrared-clusters/infrared-kube';
import { SOURCE_SECRET_FIELD_SELECTOR } from './plan';
import { pathMatch } from './glob';
import { registrarKeys } from './labels';
import type { RegistrarLogger } from './logger';
import type { RegistrarOptions } from './options';
import { PendingScope, type RegistrarScope } from './scope';

/** What a watch event says about one object (metadata only). */
type WatchEvent = KubeWatchEvent<{
  metadata?: {
    name?: string;
    namespace?: string;
    resourceVersion?: string;
    labels?: Record<string, string>;
  };
}>;

const PARTIAL_METADATA_ACCEPT =
  'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1';

/** How long the server keeps one watch open before we ask again (client-go's range is 5-10 min). */
const WATCH_TIMEOUT_S = 300;
/** Nothing heard for this long (bookmarks come every minute or so): the connection is dead. */
const IDLE_MS = (WATCH_TIMEOUT_S + 30) * 1000;
const BACKOFF_MS = [200, 500, 1000, 2000, 5000, 10_000];
/** A forbidden watch is asked again this rarely (RBAC may be granted later). */
const FORBIDDEN_RETRY_MS = 300_000;

/** @public */
export interface RegistrarWatcherOptions {
  kubeConfig: KubeConfig;
  options: RegistrarOptions;
  logger: RegistrarLogger;
  /**
   * A change worth a pass: `scope` names what changed (a pass may read and plan only that); none
   * asks for a full pass (a resync after a dropped or expired watch, or a change a scope cannot
   * hold: a deleted Secret, or another's, in the target namespace).
   */
  onChange: (reason: string, scope?: RegistrarScope) => void;
  /** Stops the watches. */
  signal: AbortSignal;
  /** Events are coalesced for this long before onChange. Default 100 ms. */
  debounceMs?: number;
  /**
   * True for an object at a version a pass already read or wrote (its own writes come back as
   * events): those ask for no pass.
   */
  known?: (
    namespace: string,
    name: string,
    resourceVersion?: string,
  ) => boolean;
}

/**
 * Watches what a pass reads and asks for a pass when it changes: the managed namespaces
 * (`<prefix>managed-by=<value>`), and Secrets as metadata only (one cluster-wide watch with the
 * pass's field selector: two connections whatever the number of children), of which only those
 * a pass uses count — a provider's name in a managed namespace, or anything in the target
 * namespace. A watch that ends is resumed from the last resourceVersion it saw; one that drops or
 * expires (410 Gone) asks for a resync pass, so no change is missed, and the caller's periodic pass
 * stays the full resync.
 *
 * @public
 */
export class RegistrarWatcher {
  private managed = new Set<string>();
  private readonly keys;
  private pending?: ReturnType<typeof setTimeout>;
  private pendingReasons = new Set<string>();
  private readonly pendingScope = new PendingScope();
  private started = false;
  private passResourceVersion?: string;
  /** Connections made, in all (bench and tests). */
  connects = 0;

  constructor(private readonly o: RegistrarWatcherOptions) {
    this.keys = registrarKeys(o.options.labelPrefix);
  }

  /** The managed namespaces as the last pass saw them (a watch event adds or drops one too). */
  setManaged(names: Iterable<string>): void {
    this.managed = new Set(names);
  }

  /**
   * Starts both watches from `resourceVersion` (the last pass's Secret list); later calls only
   * record it, for a watch that expired to resume from.
   */
  start(resourceVersion: string | undefined): void {
    if (resourceVersion) this.passResourceVersion = resourceVersion;
    if (this.started || this.o.signal.aborted) return;
    this.started = true;
    const { managedBy } = this.keys;
    const ns = this.o.options.managedBy;
    void this.loop(
      'namespaces',
      '/api/v1/namespaces',
      { labelSelector: `${managedBy}=${ns}` },
      resourceVersion,
      e => this.onNamespace(e),
    );
    void this.loop(
      'secrets',
      '/api/v1/secrets',
      { fieldSelector: SOURCE_SECRET_FIELD_SELECTOR },
      resourceVersion,
      e => this.onSecret(e),
    );
  }

  private onNamespace(e: WatchEvent) {
    const name = e.object.metadata?.name;
    if (!name) return;
    if (e.type === 'DELETED') this.managed.delete(name);
    else this.managed.add(name);
    this.changed(`namespace ${name} ${e.type.toLowerCase()}`, {
      namespaces: [name],
      targetNames: [],
    });
  }

  private onSecret(e: WatchEvent) {
    const { name, namespace } = e.object.metadata ?? {};
    if (!name || !namespace) return;
    const inTarget = namespace === this.o.options.targetNamespace;
    const relevant =
      inTarget ||
      (this.managed.has(namespace) &&
        this.o.options.providers.some(p =>
          pathMatch(p.secretNamePattern, name),
        ));
    if (
      relevant &&
      !(
        e.type !== 'DELETED' &&
        this.o.known?.(namespace, name, e.object.metadata?.resourceVersion)
      )
    ) {
      this.changed(
        `secret ${namespace}/${name} ${e.type.toLowerCase()}`,
        this.secretScope(e, inTarget),
      );
    }
  }

  /**
   * What a pass must read for a Secret's event: its namespace; in the target namespace, the Secret
   * when it is one of ours and still there, else everything (a deleted or another's Secret may
   * free an address or a name some child was refused).
   */
  private secretScope(
    e: WatchEvent,
    inTarget: boolean,
  ): RegistrarScope | undefined {
    const { name = '', namespace = '', labels } = e.object.metadata ?? {};
    if (!inTarget) return { namespaces: [namespace], targetNames: [] };
    const ours = labels?.[this.keys.managedBy] === this.o.options.managedBy;
    return ours && e.type !== 'DELETED'
      ? { namespaces: [], targetNames: [name] }
      : undefined;
  }

  private changed(reason: string, scope?: RegistrarScope) {
    this.pendingReasons.add(reason);
    this.pendingScope.add(scope);
    if (this.pending) return;
    this.pending = setTimeout(() => {
      this.pending = undefined;
      const reasons = [...this.pendingReasons];
      this.pendingReasons.clear();
      const what = this.pendingScope.take();
      if (!this.o.signal.aborted) this.o.onChange(reasons.join(', '), what);
    }, this.o.debounceMs ?? 100);
    this.pending.unref?.();
  }

  private async loop(
    what: string,
    path: string,
    selector: Record<string, string>,
    from: string | undefined,
    onEvent: (e: WatchEvent) => void,
  ): Promise<void> {
    const { signal, logger } = this.o;
    const state = { rv: from, failures: 0 };
    let forbiddenLogged = false;
    while (!signal.aborted) {
      let outcome: 'ended' | 'gone' | 'dropped' | 'forbidden';
      let detail = '';
      const began = Date.now();
      try {
        this.connects++;
        outcome = await this.once(path, selector, state.rv, e =>
          this.seen(state, e, onEvent),
        );
      } catch (err) {
        outcome = 'dropped';
        detail = (err as Error).message;
      }
      if (signal.aborted) break;
      if (outcome === 'ended' && Date.now() - began > 1000) continue; // the server's timeout: resume
      if (outcome === 'forbidden') {
        // No watch permission: the periodic pass still registers everything, only later.
        if (!forbiddenLogged) {
          logger.warn(
            'watch forbidden; changes wait for the next pass (grant watch on this resource)',
            { watch: what },
          );
          forbiddenLogged = true;
        }
        await sleep(FORBIDDEN_RETRY_MS, signal);
        continue;
      }
      if (outcome === 'ended') {
        // Ended at once: not a timeout. Resync, and back off.
        this.changed(`${what} watch ended`);
      } else if (outcome === 'gone') {
        // The resourceVersion left the watch cache: a pass reads everything again, and the watch
        // resumes from that pass's list (never from nothing, which would replay every object).
        logger.info('watch expired; resyncing', { watch: what });
        const expired = state.rv;
        this.changed(`${what} watch expired`);
        await sleep(this.backoff(state), signal);
        if (this.passResourceVersion !== expired) {
          state.rv = this.passResourceVersion;
        }
        continue;
      } else {
        logger.warn('watch dropped; resyncing', {
          watch: what,
          ...(detail ? { error: detail } : {}),
        });
        this.changed(`${what} watch dropped`);
      }
      await sleep(this.backoff(state), signal);
    }
  }

  private backoff(state: { failures: number }): number {
    return BACKOFF_MS[Math.min(state.failures++, BACKOFF_MS.length - 1)];
  }

  /** An event: its resourceVersion is where to resume; a working watch resets the backoff. */
  private seen(
    state: { rv?: string; failures: number },
    e: WatchEvent,
    onEvent: (e: WatchEvent) => void,
  ) {
    const next = e.object.metadata?.resourceVersion;
    if (next) state.rv = next;
    state.failures = 0;
    if (e.type !== 'BOOKMARK') onEvent(e);
  }

  /** One watch request until the server ends it; rejects when the connection fails. */
  private once(
    path: string,
    selector: Record<string, string>,
    rv: string | undefined,
    onEvent: (e: WatchEvent) => void,
  ): Promise<'ended' | 'gone' | 'forbidden'> {
    return watchOnce(
      this.o.kubeConfig,
      path,
      {
        query: {
          ...selector,
          allowWatchBookmarks: true,
          timeoutSeconds: WATCH_TIMEOUT_S,
          resourceVersion: rv,
        },
        accept: PARTIAL_METADATA_ACCEPT,
        signal: this.o.signal,
        idleMs: IDLE_MS,
      },
      onEvent,
    );
  }
}

/** Waits `ms`, or less when `signal` aborts; never keeps the process alive. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return delay(ms, undefined, { signal, ref: false }).catch(() => undefined);
}

import type { RegistrarApi } from './api';
import type { NamespaceObject, RegistrarSecret } from './types';

/**
 * What a watch event says changed, for a pass scoped to it: source namespaces (a managed namespace
 * or a kubeconfig Secret in one) and Secrets of the target namespace.
 *
 * @public
 */
export interface RegistrarScope {
  namespaces: string[];
  targetNames: string[];
}

/**
 * Changes waiting for a pass: the union of their scopes, or a full pass when any asked for one
 * (a resync, a dropped watch, the schedule).
 *
 * @public
 */
export class PendingScope {
  private waiting = false;
  private full = false;
  private readonly namespaces = new Set<string>();
  private readonly targetNames = new Set<string>();

  /** A change; no scope asks for a full pass. */
  add(scope?: RegistrarScope): void {
    this.waiting = true;
    if (!scope) {
      this.full = true;
      return;
    }
    for (const n of scope.namespaces) this.namespaces.add(n);
    for (const n of scope.targetNames) this.targetNames.add(n);
  }

  get pending(): boolean {
    return this.waiting;
  }

  /** Whether what waits is a full pass. */
  get isFull(): boolean {
    return this.full;
  }

  /** What waits, and nothing waits after: a scope, or undefined for a full pass. */
  take(): RegistrarScope | undefined {
    const scope = this.full
      ? undefined
      : {
          namespaces: [...this.namespaces],
          targetNames: [...this.targetNames],
        };
    this.waiting = false;
    this.full = false;
    this.namespaces.clear();
    this.targetNames.clear();
    return scope;
  }
}

/**
 * What the last full pass saw, kept current by the scoped passes since: the managed namespaces and
 * the target namespace's Secrets (after the passes' writes). A scoped pass reads only what changed
 * and plans against this for the rest; the watches tell it what changed, and a dropped watch asks
 * for a full pass, which replaces it.
 */
export class RegistrarView {
  readonly namespaces = new Map<string, NamespaceObject>();
  target = new Map<string, RegistrarSecret>();
  ready = false;

  /** After a full pass: what it listed, and the target namespace as its writes left it. */
  replace(
    namespaces: NamespaceObject[],
    target: Map<string, RegistrarSecret>,
  ): void {
    this.namespaces.clear();
    for (const n of namespaces) this.namespaces.set(n.metadata.name, n);
    this.target = target;
    this.ready = true;
  }
}

const views = new WeakMap<RegistrarApi, RegistrarView>();

/** The view that goes with one API client (one per CLI process or backend task). */
export function registrarViewFor(api: RegistrarApi): RegistrarView {
  let view = views.get(api);
  if (!view) {
    view = new RegistrarView();
    views.set(api, view);
  }
  return view;
}

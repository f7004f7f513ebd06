import { isOwned } from '../audit';
import type { DiscoveredChild } from '../discover';
import {
  ARGO_SECRET_TYPE_CLUSTER,
  ARGO_SECRET_TYPE_LABEL,
  byteOrder,
  PRUNE_DISABLED,
  registrarKeys,
  type RegistrarKeys,
} from '../labels';
import type { RegistrarOptions } from '../options';
import { secretServer, withData } from '../secrets';
import type {
  ConflictReason,
  NamespaceObject,
  RegistrarAction,
  RegistrarConflict,
  RegistrarLog,
  RegistrarObserved,
  RegistrarPlanChild,
  RegistrarSecret,
} from '../types';

export type NamespaceState =
  | { kind: 'exists'; ns: NamespaceObject }
  | { kind: 'gone' }
  | { kind: 'error'; message: string }
  | { kind: 'unknown' };

function link(
  index: Map<string, Set<string>>,
  key: string | undefined,
  name: string,
  add: boolean,
) {
  if (key === undefined) return;
  let set = index.get(key);
  if (!set) {
    if (!add) return;
    set = new Set();
    index.set(key, set);
  }
  if (add) set.add(name);
  else set.delete(name);
}

/**
 * What a plan knows while it decides: the observation, indexed, and the target namespace as it
 * stands after the actions planned so far; and what the plan has decided (actions, refusals,
 * logs, errors, the namespaces it still needs to know about).
 */
export class PlanState {
  readonly keys: RegistrarKeys;
  readonly managed = new Map<string, NamespaceObject>();
  /** Managed namespaces by the cluster name they claim. */
  readonly claimants = new Map<string, NamespaceObject[]>();
  readonly sources = new Map<string, RegistrarSecret[]>();
  /** The target namespace as it stands after the actions planned so far. */
  readonly target = new Map<string, RegistrarSecret>();
  /** Owned Secrets by the source namespace they record (names). */
  private readonly bySource = new Map<string, Set<string>>();
  /** Argo CD cluster Secrets by trimmed server (names). */
  private readonly byServer = new Map<string, Set<string>>();
  readonly actions: RegistrarAction[] = [];
  readonly conflicts: RegistrarConflict[] = [];
  readonly logs: RegistrarLog[] = [];
  readonly errors: Array<{ namespace: string; message: string }> = [];
  readonly needs = new Set<string>();
  readonly children: RegistrarPlanChild[] = [];
  adoptions = 0;

  constructor(
    readonly observed: RegistrarObserved,
    readonly options: RegistrarOptions,
  ) {
    this.keys = registrarKeys(options.labelPrefix);
    for (const ns of observed.namespaces) {
      this.managed.set(ns.metadata.name, ns);
      const cluster = ns.metadata.labels?.[this.keys.cluster];
      if (cluster) {
        const list = this.claimants.get(cluster) ?? [];
        list.push(ns);
        this.claimants.set(cluster, list);
      }
    }
    for (const s of observed.secrets) {
      const ns = s.metadata.namespace ?? '';
      if (ns === options.targetNamespace) {
        this.put(withData(s));
      } else {
        const list = this.sources.get(ns) ?? [];
        list.push(s);
        this.sources.set(ns, list);
      }
    }
  }

  log(
    level: RegistrarLog['level'],
    message: string,
    fields: RegistrarLog['fields'],
  ) {
    this.logs.push({ level, message, fields });
  }

  /** What the observation says of a namespace; an unlisted, unlooked-up one becomes a need. */
  namespaceState(name: string): NamespaceState {
    const listed = this.managed.get(name);
    if (listed) return { kind: 'exists', ns: listed };
    const lookups = this.observed.namespaceLookups ?? {};
    if (!(name in lookups)) {
      this.needs.add(name);
      return { kind: 'unknown' };
    }
    const found = lookups[name];
    if (found === null) return { kind: 'gone' };
    if ('error' in found) return { kind: 'error', message: found.error };
    return { kind: 'exists', ns: found };
  }

  isPinned(s: RegistrarSecret): boolean {
    return s.metadata.labels?.[this.keys.prune] === PRUNE_DISABLED;
  }

  /** Whether the registration is pinned (then says it leaves it alone). */
  leavesPinned(s: RegistrarSecret, namespace: string): boolean {
    if (!this.isPinned(s)) return false;
    this.log('debug', 'registration is pinned; leaving it', {
      secret: s.metadata.name,
      namespace,
      label: this.keys.prune,
    });
    return true;
  }

  private indexKeys(s: RegistrarSecret) {
    const labels = s.metadata.labels ?? {};
    return {
      source: isOwned(s, this.options)
        ? labels[this.keys.sourceNamespace]
        : undefined,
      server:
        labels[ARGO_SECRET_TYPE_LABEL] === ARGO_SECRET_TYPE_CLUSTER
          ? secretServer(s)
          : undefined,
    };
  }

  /** Sets a Secret in the simulated target namespace, keeping the indexes. */
  private put(s: RegistrarSecret) {
    this.drop(s.metadata.name);
    this.target.set(s.metadata.name, s);
    const k = this.indexKeys(s);
    link(this.bySource, k.source, s.metadata.name, true);
    link(this.byServer, k.server, s.metadata.name, true);
  }

  private drop(name: string) {
    const old = this.target.get(name);
    if (!old) return;
    const k = this.indexKeys(old);
    link(this.bySource, k.source, name, false);
    link(this.byServer, k.server, name, false);
    this.target.delete(name);
  }

  private named(names: Iterable<string> | undefined): RegistrarSecret[] {
    return [...(names ?? [])]
      .sort(byteOrder)
      .map(n => this.target.get(n)!)
      .filter(Boolean);
  }

  owned(): RegistrarSecret[] {
    return [...this.target.values()]
      .filter(s => isOwned(s, this.options))
      .sort((a, b) => byteOrder(a.metadata.name, b.metadata.name));
  }

  /** Owned Secrets recording `ns` as their source namespace, by name. */
  recordedAgainst(ns: string): RegistrarSecret[] {
    return this.named(this.bySource.get(ns));
  }

  /** Argo CD cluster Secrets holding `server` (trimmed), by name. */
  holdingServer(server: string): RegistrarSecret[] {
    return this.named(this.byServer.get(server));
  }

  act(action: RegistrarAction) {
    this.actions.push(action);
    if (action.type === 'delete') {
      this.drop(action.name);
    } else {
      this.put(withData(action.secret));
    }
  }

  conflict(reason: ConflictReason, child: DiscoveredChild, message: string) {
    this.conflicts.push({
      reason,
      namespace: child.namespace,
      cluster: child.cluster,
      message,
    });
    this.log('error', 'refused to register cluster', {
      cluster: child.cluster,
      namespace: child.namespace,
      conflict: reason,
      reason: message,
    });
  }
}

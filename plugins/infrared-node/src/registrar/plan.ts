import {
  argoClusterSecret,
  MANAGED_BY_LABEL,
  type ArgoClusterConfig,
} from '@infrared-clusters/plugin-infrared-common';
import { auditRegistrations, isOwned } from './audit';
import { discoverChild, type DiscoveredChild } from './discover';
import {
  ARGO_SECRET_TYPE_CLUSTER,
  ARGO_SECRET_TYPE_LABEL,
  byteOrder,
  formatStaleSince,
  parseStaleSince,
  PRUNE_DISABLED,
  registrarKeys,
  type RegistrarKeys,
} from './labels';
import type { RegistrarOptions } from './options';
import {
  b64,
  cloneSecret,
  secretServer,
  secretValue,
  withData,
} from './secrets';
import {
  CONFLICT_REASONS,
  type ConflictReason,
  type NamespaceObject,
  type RegistrarAction,
  type RegistrarConflict,
  type RegistrarLog,
  type RegistrarObserved,
  type RegistrarPlan,
  type RegistrarSecret,
} from './types';
import { labelValueError } from './validation';

type NamespaceState =
  | { kind: 'exists'; ns: NamespaceObject }
  | { kind: 'gone' }
  | { kind: 'error'; message: string }
  | { kind: 'unknown' };

const UNKNOWN = Symbol('unknown');

/** The registration `cluster-<name>` as this registrar writes it for a child. */
export function desiredClusterSecret(
  child: DiscoveredChild,
  options: RegistrarOptions,
): RegistrarSecret {
  const keys = registrarKeys(options.labelPrefix);
  const secret = argoClusterSecret({
    clusterName: child.cluster,
    server: child.server,
    // The config is already in stable bytes; argoClusterSecret serialises it again the same way.
    argoConfig: JSON.parse(child.config) as ArgoClusterConfig,
    namespace: options.targetNamespace,
    labels: {
      [keys.managedBy]: options.managedBy,
      [keys.cluster]: child.cluster,
      [keys.sourceNamespace]: child.namespace,
      ...(child.namespaceUid
        ? { [keys.sourceNamespaceUid]: child.namespaceUid }
        : {}),
      [keys.provider]: child.provider,
      // Last, as upstream; they can't reach a reserved key (propagatedLabels withholds those).
      ...child.labels,
    },
    annotations: child.annotations,
  });
  // Infrared's own registrations carry app.kubernetes.io/managed-by=infrared; these are the
  // registrar's, owned through <prefix>managed-by alone, as upstream writes them.
  const labels = { ...secret.metadata.labels };
  delete labels[MANAGED_BY_LABEL];
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { ...secret.metadata, labels },
    type: secret.type,
    stringData: { ...secret.stringData! },
  };
}

const isPinned = (s: RegistrarSecret, keys: RegistrarKeys) =>
  s.metadata.labels?.[keys.prune] === PRUNE_DISABLED;

/**
 * Whether the live Secret differs from what would be written: name/server/config bytes, wanted
 * labels, stray prefixed labels (the pin excepted), and annotations both ways.
 */
export function registrationChanged(
  existing: RegistrarSecret,
  desired: RegistrarSecret,
  labelPrefix: string,
): boolean {
  const keys = registrarKeys(labelPrefix);
  for (const [k, v] of Object.entries(desired.stringData ?? {})) {
    if (secretValue(existing, k) !== v) return true;
  }
  const have = existing.metadata.labels ?? {};
  const want = desired.metadata.labels ?? {};
  for (const [k, v] of Object.entries(want)) if (have[k] !== v) return true;
  for (const k of Object.keys(have)) {
    if (k.startsWith(labelPrefix) && k !== keys.prune && !(k in want))
      return true;
  }
  const haveA = existing.metadata.annotations ?? {};
  const wantA = desired.metadata.annotations ?? {};
  for (const [k, v] of Object.entries(wantA)) if (haveA[k] !== v) return true;
  for (const k of Object.keys(haveA)) {
    if (k.startsWith(labelPrefix) && k !== keys.prune && !(k in wantA))
      return true;
  }
  return false;
}

/**
 * Read-modify-write: the live object with our keys set and stale prefixed keys swept. Everything
 * else — Argo CD's `namespaces`/`project`/`clusterResources`, foreign labels and annotations,
 * finalizers, owner references — is carried over; the resourceVersion is the precondition.
 */
export function mergeRegistration(
  existing: RegistrarSecret,
  desired: RegistrarSecret,
  labelPrefix: string,
): RegistrarSecret {
  const keys = registrarKeys(labelPrefix);
  const updated = cloneSecret(existing);
  delete updated.stringData;
  updated.data = { ...(existing.data ?? {}) };
  for (const [k, v] of Object.entries(desired.stringData ?? {})) {
    updated.data[k] = b64(v);
  }
  const sweep = (
    have: Record<string, string> | undefined,
    want: Record<string, string>,
  ) => {
    const out = { ...(have ?? {}), ...want };
    for (const k of Object.keys(out)) {
      if (k.startsWith(labelPrefix) && k !== keys.prune && !(k in want)) {
        delete out[k];
      }
    }
    return out;
  };
  updated.metadata.labels = sweep(
    existing.metadata.labels,
    desired.metadata.labels ?? {},
  );
  const annotations = sweep(
    existing.metadata.annotations,
    desired.metadata.annotations ?? {},
  );
  if (Object.keys(annotations).length || existing.metadata.annotations) {
    updated.metadata.annotations = annotations;
  }
  return updated;
}

class Planner {
  readonly keys: RegistrarKeys;
  readonly managed = new Map<string, NamespaceObject>();
  /** Managed namespaces by the cluster name they claim. */
  private readonly claimants = new Map<string, NamespaceObject[]>();
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

  private static link(
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

  /** Sets a Secret in the simulated target namespace, keeping the indexes. */
  private put(s: RegistrarSecret) {
    this.drop(s.metadata.name);
    this.target.set(s.metadata.name, s);
    const k = this.indexKeys(s);
    Planner.link(this.bySource, k.source, s.metadata.name, true);
    Planner.link(this.byServer, k.server, s.metadata.name, true);
  }

  private drop(name: string) {
    const old = this.target.get(name);
    if (!old) return;
    const k = this.indexKeys(old);
    Planner.link(this.bySource, k.source, name, false);
    Planner.link(this.byServer, k.server, name, false);
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

  run(): RegistrarPlan {
    const keySet = new Set<string>(this.managed.keys());
    for (const s of this.owned()) {
      const src = s.metadata.labels?.[this.keys.sourceNamespace];
      if (src) keySet.add(src);
    }
    const keys = [...keySet].sort(byteOrder);
    for (const key of keys) this.reconcileKey(key);
    const audit = auditRegistrations(
      [...this.target.values()],
      this.options,
      this.observed.now,
    );
    const conflicts = Object.fromEntries(
      CONFLICT_REASONS.map(r => [r, 0]),
    ) as Record<ConflictReason, number>;
    for (const c of this.conflicts) conflicts[c.reason]++;
    return {
      keys,
      actions: this.actions,
      conflicts: this.conflicts,
      logs: this.logs,
      errors: this.errors,
      needs: [...this.needs].sort(byteOrder),
      metrics: {
        conflicts,
        adoptions: this.adoptions,
        registrations: audit.registrations,
        unroutedSecrets: audit.unrouted.length,
      },
    };
  }

  reconcileKey(key: string) {
    const state = this.namespaceState(key);
    if (state.kind === 'unknown') return;
    if (state.kind === 'error') {
      // Nothing is proven, so nothing may be collected.
      this.errors.push({ namespace: key, message: state.message });
      this.log('error', 'could not confirm the namespace; touching nothing', {
        namespace: key,
        error: state.message,
      });
      return;
    }
    if (state.kind === 'gone') {
      this.collectGone(key);
      return;
    }
    const ns = state.ns;
    if (ns.metadata.labels?.[this.keys.managedBy] !== this.options.managedBy) {
      this.log(
        'warn',
        'namespace no longer carries the ownership label; leaving its registrations alone',
        { namespace: key, label: this.keys.managedBy },
      );
      return;
    }
    if (ns.metadata.deletionTimestamp) {
      this.log('debug', 'skipping terminating namespace', { namespace: key });
      this.keepWhileTerminating(key);
      return;
    }
    this.collectStaleUid(ns);
    const found = discoverChild(ns, this.sources.get(key) ?? [], this.options);
    this.logs.push(...found.logs);
    if (!found.ok) return;
    const applied = this.apply(found.child);
    if (applied) this.collect(key, applied);
  }

  /**
   * A terminating namespace still exists, so nothing recorded against it is deleted or demoted
   * (a finalizer may yet abort the deletion); upstream warns for each such registration.
   */
  keepWhileTerminating(key: string) {
    for (const s of this.recordedAgainst(key)) {
      if (isPinned(s, this.keys)) {
        this.log('debug', 'registration is pinned; leaving it', {
          secret: s.metadata.name,
          namespace: key,
          label: this.keys.prune,
        });
        continue;
      }
      this.log(
        'warn',
        'source namespace still exists but produced no registration; not deleting',
        { secret: s.metadata.name, namespace: key },
      );
    }
  }

  /** The source namespace is provably gone: its unpinned registrations go, UID-preconditioned. */
  collectGone(key: string) {
    for (const s of this.recordedAgainst(key)) {
      if (isPinned(s, this.keys)) {
        this.log('debug', 'registration is pinned; leaving it', {
          secret: s.metadata.name,
          namespace: key,
          label: this.keys.prune,
        });
        continue;
      }
      this.act({
        type: 'delete',
        namespace: key,
        name: s.metadata.name,
        uid: s.metadata.uid,
        reason: 'namespace_gone',
      });
    }
  }

  /** A namespace recreated under the same name is not the one its old registrations came from. */
  collectStaleUid(ns: NamespaceObject) {
    const uid = ns.metadata.uid;
    if (!uid) return;
    for (const s of this.recordedAgainst(ns.metadata.name)) {
      const recorded = s.metadata.labels?.[this.keys.sourceNamespaceUid];
      if (!recorded || recorded === uid) continue;
      if (isPinned(s, this.keys)) {
        this.log('debug', 'registration is pinned; leaving it', {
          secret: s.metadata.name,
          namespace: ns.metadata.name,
          label: this.keys.prune,
        });
        continue;
      }
      this.act({
        type: 'delete',
        namespace: ns.metadata.name,
        name: s.metadata.name,
        uid: s.metadata.uid,
        reason: 'stale_uid',
      });
    }
  }

  /** Oldest non-terminating claimant wins an unheld name; an exact tie goes to the smaller name. */
  contestedBy(child: DiscoveredChild): string | undefined {
    let winner: NamespaceObject | undefined;
    const at = (ns: NamespaceObject) =>
      Date.parse(ns.metadata.creationTimestamp ?? '') || 0;
    for (const ns of this.claimants.get(child.cluster) ?? []) {
      if (ns.metadata.labels?.[this.keys.managedBy] !== this.options.managedBy)
        continue;
      if (ns.metadata.deletionTimestamp) continue;
      if (
        !winner ||
        at(ns) < at(winner) ||
        (at(ns) === at(winner) &&
          byteOrder(ns.metadata.name, winner.metadata.name) < 0)
      ) {
        winner = ns;
      }
    }
    return winner && winner.metadata.name !== child.namespace
      ? winner.metadata.name
      : undefined;
  }

  /** The Argo CD cluster Secret already holding the child's server, if any may keep it. */
  serverHolder(
    child: DiscoveredChild,
    self?: string,
  ): RegistrarSecret | undefined | typeof UNKNOWN {
    for (const s of this.named(this.byServer.get(child.server))) {
      const labels = s.metadata.labels ?? {};
      if (s.metadata.name === self) continue;
      if (labels[ARGO_SECRET_TYPE_LABEL] !== ARGO_SECRET_TYPE_CLUSTER) continue;
      const src = labels[this.keys.sourceNamespace] ?? '';
      if (src && src === child.namespace) continue;
      if (labels[this.keys.orphanedSecretType]) continue;
      if (secretServer(s) !== child.server) continue;
      const pinned = isPinned(s, this.keys);
      if (!pinned && src) {
        const state = this.namespaceState(src);
        if (state.kind === 'unknown') return UNKNOWN;
        if (state.kind === 'gone') {
          this.log(
            'info',
            "incumbent registration's source namespace is gone; releasing its address",
            { secret: s.metadata.name, namespace: src, server: child.server },
          );
          continue;
        }
      }
      return s;
    }
    return undefined;
  }

  /** Refuses (and says why) when the server is held; false when the plan must wait for a lookup. */
  serverFree(child: DiscoveredChild, self?: string): boolean {
    const holder = this.serverHolder(child, self);
    if (holder === UNKNOWN) return false;
    if (!holder) return true;
    const src = holder.metadata.labels?.[this.keys.sourceNamespace];
    const pinned = isPinned(holder, this.keys);
    const hint = pinned
      ? `The incumbent is pinned with ${this.keys.prune}=${PRUNE_DISABLED}; remove that label to let it be replaced`
      : "To scope one cluster several ways, use a single registration with Argo CD's `namespaces` key, or AppProject destination service accounts";
    this.conflict(
      'server_collision',
      child,
      `server ${child.server} is already registered as ${
        holder.metadata.name
      } (from ${
        src || 'outside this registrar'
      }); refusing to register it again as ${child.cluster} from ${
        child.namespace
      }, because Argo CD identifies a cluster by its address. ${hint}`,
    );
    return false;
  }

  /** Writes (plans) the registration; its Secret name when the namespace now holds it. */
  apply(child: DiscoveredChild): string | undefined {
    const desired = desiredClusterSecret(child, this.options);
    const name = desired.metadata.name;
    const existing = this.target.get(name);
    if (!existing) {
      const winner = this.contestedBy(child);
      if (winner) {
        this.conflict(
          'contested_name',
          child,
          `cluster "${child.cluster}" is also claimed by namespace ${winner}, which is older; not registering it from ${child.namespace}`,
        );
        return undefined;
      }
      if (!this.serverFree(child)) return undefined;
      this.act({
        type: 'create',
        namespace: child.namespace,
        cluster: child.cluster,
        server: child.server,
        secret: desired,
      });
      return name;
    }

    const labels = existing.metadata.labels ?? {};
    const target = this.options.targetNamespace;
    if (labels[this.keys.managedBy] !== this.options.managedBy) {
      this.conflict(
        'not_managed',
        child,
        `secret ${target}/${name} is not managed by this registrar (${
          this.keys.managedBy
        }=${JSON.stringify(
          labels[this.keys.managedBy] ?? '',
        )}); refusing to take it over for namespace ${
          child.namespace
        }. Rename the cluster, or delete the secret if it is genuinely stale`,
      );
      return undefined;
    }
    const src = labels[this.keys.sourceNamespace] ?? '';
    let adoption = false;
    if (src === '') {
      if (labels[this.keys.cluster] !== child.cluster) {
        this.conflict(
          'orphan_cluster_mismatch',
          child,
          `secret ${target}/${name} is owned but records no source namespace, and its ${
            this.keys.cluster
          } label is ${JSON.stringify(
            labels[this.keys.cluster] ?? '',
          )} rather than ${JSON.stringify(
            child.cluster,
          )}; refusing to adopt it for namespace ${child.namespace}`,
        );
        return undefined;
      }
      adoption = true;
    } else if (src !== child.namespace) {
      this.conflict(
        'incumbent',
        child,
        `cluster "${child.cluster}" is registered from namespace ${src}; refusing to take it over for ${child.namespace}. Two namespaces must not claim one cluster name`,
      );
      return undefined;
    }

    if (!registrationChanged(existing, desired, this.options.labelPrefix)) {
      this.log('debug', 'cluster secret already up to date', {
        cluster: child.cluster,
        namespace: child.namespace,
      });
      return name;
    }
    const was = secretServer(existing);
    if (was !== child.server) {
      if (!this.serverFree(child, name)) return undefined;
      this.log(
        'warn',
        'cluster address changed; Argo CD may keep watching the old one until its application controller restarts',
        { cluster: child.cluster, from: was, to: child.server },
      );
    }
    if (adoption) {
      this.adoptions++;
      this.log(
        'warn',
        'adopting an owned cluster secret that records no source namespace',
        {
          secret: name,
          cluster: child.cluster,
          namespace: child.namespace,
          label: this.keys.sourceNamespace,
        },
      );
    }
    this.act({
      type: 'update',
      namespace: child.namespace,
      cluster: child.cluster,
      server: child.server,
      secret: mergeRegistration(existing, desired, this.options.labelPrefix),
      adoption,
    });
    return name;
  }

  /**
   * The namespace registered `applied`; its other registrations were superseded (a rename):
   * demote them (reversible), or delete a long-demoted one when a TTL is set.
   */
  collect(key: string, applied: string) {
    const now = this.observed.now;
    for (const s of this.recordedAgainst(key)) {
      const name = s.metadata.name;
      if (name === applied) continue;
      if (isPinned(s, this.keys)) {
        this.log('debug', 'registration is pinned; leaving it', {
          secret: name,
          namespace: key,
          label: this.keys.prune,
        });
        continue;
      }
      const labels = s.metadata.labels ?? {};
      if (labels[this.keys.orphanedSecretType]) {
        const ttl = this.options.demotedTtlMs;
        if (ttl <= 0) {
          this.log('debug', 'superseded registration is already demoted', {
            secret: name,
            supersededBy: applied,
          });
          continue;
        }
        const since = parseStaleSince(labels[this.keys.staleSince]);
        if (!since) {
          this.log(
            'warn',
            'demoted registration has no readable stale-since; keeping it',
            { secret: name, label: this.keys.staleSince },
          );
          continue;
        }
        if (now.getTime() - since.getTime() > ttl) {
          this.act({
            type: 'delete',
            namespace: key,
            name,
            uid: s.metadata.uid,
            resourceVersion: s.metadata.resourceVersion,
            reason: 'demoted_ttl',
          });
        }
        continue;
      }
      const demoted = cloneSecret(s);
      const l = { ...labels };
      if (l[ARGO_SECRET_TYPE_LABEL] !== undefined) {
        l[this.keys.orphanedSecretType] = l[ARGO_SECRET_TYPE_LABEL];
        delete l[ARGO_SECRET_TYPE_LABEL];
      }
      const invalid = labelValueError(applied);
      if (invalid) {
        this.log(
          'warn',
          'superseded-by would not be a valid label value; demoting without it',
          { secret: name, supersededBy: applied, reason: invalid },
        );
      } else {
        l[this.keys.supersededBy] = applied;
      }
      l[this.keys.staleSince] = formatStaleSince(now);
      demoted.metadata.labels = l;
      this.act({
        type: 'demote',
        namespace: key,
        secret: demoted,
        supersededBy: applied,
      });
    }
  }
}

/**
 * The registrar's pure planner: from one observation (managed namespaces, their Secrets, the
 * target namespace's Secrets, and namespace lookups) decides every create, update, demotion and
 * delete of the pass, the conflicts it refuses, what it logs and the metrics it publishes. It
 * simulates the keys in sorted order over one in-memory copy of the target namespace, so it
 * decides exactly as upstream's sequential per-namespace reconcile would.
 */
export function planRegistrarPass(
  observed: RegistrarObserved,
  options: RegistrarOptions,
): RegistrarPlan {
  return new Planner(observed, options).run();
}

import { auditRegistrations } from '../audit';
import { discoverChild } from '../discover';
import { byteOrder } from '../labels';
import type { RegistrarOptions } from '../options';
import {
  CONFLICT_REASONS,
  type ConflictReason,
  type RegistrarObserved,
  type RegistrarPlan,
  type RegistrarPlanChild,
} from '../types';
import {
  collectGone,
  collectStaleUid,
  collectSuperseded,
  keepWhileTerminating,
} from './collect';
import { planRegistration } from './register';
import { PlanState } from './state';

/** One reconcile key (a source namespace): its registration, and what it no longer needs. */
function reconcileKey(state: PlanState, key: string) {
  const known = state.namespaceState(key);
  if (known.kind === 'unknown') return;
  const child: RegistrarPlanChild = { namespace: key };
  state.children.push(child);
  if (known.kind === 'error') {
    // Nothing is proven, so nothing may be collected.
    state.errors.push({ namespace: key, message: known.message });
    state.log('error', 'could not confirm the namespace; touching nothing', {
      namespace: key,
      error: known.message,
    });
    return;
  }
  if (known.kind === 'gone') {
    collectGone(state, key);
    return;
  }
  const ns = known.ns;
  const labelled = ns.metadata.labels?.[state.keys.cluster];
  if (labelled) child.cluster = labelled;
  if (ns.metadata.labels?.[state.keys.managedBy] !== state.options.managedBy) {
    child.skip = {
      reason: 'not_managed',
      message: `namespace ${key} no longer carries ${state.keys.managedBy}=${state.options.managedBy}; its registrations are left alone`,
    };
    state.log(
      'warn',
      'namespace no longer carries the ownership label; leaving its registrations alone',
      { namespace: key, label: state.keys.managedBy },
    );
    return;
  }
  if (ns.metadata.deletionTimestamp) {
    child.skip = {
      reason: 'terminating',
      message: `namespace ${key} is being deleted`,
    };
    state.log('debug', 'skipping terminating namespace', { namespace: key });
    keepWhileTerminating(state, key);
    return;
  }
  collectStaleUid(state, ns);
  const found = discoverChild(ns, state.sources.get(key) ?? [], state.options);
  state.logs.push(...found.logs);
  if (!found.ok) {
    const { cluster, ...skip } = found.skip;
    if (cluster) child.cluster = cluster;
    child.skip = skip;
    return;
  }
  child.cluster = found.child.cluster;
  const applied = planRegistration(state, found.child);
  if (applied) collectSuperseded(state, key, applied);
}

/**
 * Managed namespaces ∪ the source namespaces owned Secrets record, sorted; of those, only `only`'s
 * when given (a scoped pass, without going over every key).
 */
function reconcileKeys(state: PlanState, only?: string[]): string[] {
  if (only) {
    return only
      .filter(k => state.managed.has(k) || state.recordedAgainst(k).length)
      .sort(byteOrder);
  }
  const keySet = new Set<string>(state.managed.keys());
  for (const s of state.owned()) {
    const src = s.metadata.labels?.[state.keys.sourceNamespace];
    if (src) keySet.add(src);
  }
  return [...keySet].sort(byteOrder);
}

/**
 * The registrar's pure planner: from one observation (managed namespaces, their Secrets, the
 * target namespace's Secrets, and namespace lookups) decides every create, update, demotion and
 * delete of the pass, the conflicts it refuses, what it logs and the metrics it publishes. It
 * simulates the keys in sorted order over one in-memory copy of the target namespace, so it
 * decides exactly as upstream's sequential per-namespace reconcile would.
 *
 * @public
 */
export function planRegistrarPass(
  observed: RegistrarObserved,
  options: RegistrarOptions,
): RegistrarPlan {
  const state = new PlanState(observed, options);
  const keys = reconcileKeys(state, observed.onlyKeys);
  for (const key of keys) reconcileKey(state, key);
  const audit = auditRegistrations(
    [...state.target.values()],
    options,
    observed.now,
  );
  const conflicts = Object.fromEntries(
    CONFLICT_REASONS.map(r => [r, 0]),
  ) as Record<ConflictReason, number>;
  for (const c of state.conflicts) conflicts[c.reason]++;
  return {
    keys,
    actions: state.actions,
    conflicts: state.conflicts,
    logs: state.logs,
    errors: state.errors,
    needs: [...state.needs].sort(byteOrder),
    children: state.children,
    metrics: {
      conflicts,
      adoptions: state.adoptions,
      registrations: audit.registrations,
      unroutedSecrets: audit.unrouted.length,
    },
  };
}

import {
  ARGO_SECRET_TYPE_LABEL,
  formatStaleSince,
  parseStaleSince,
} from '../labels';
import { cloneSecret } from '../secrets';
import type { NamespaceObject, RegistrarSecret } from '../types';
import { labelValueError } from '../validation';
import type { PlanState } from './state';

/**
 * A terminating namespace still exists, so nothing recorded against it is deleted or demoted
 * (a finalizer may yet abort the deletion); upstream warns for each such registration.
 */
export function keepWhileTerminating(state: PlanState, key: string) {
  for (const s of state.recordedAgainst(key)) {
    if (state.leavesPinned(s, key)) continue;
    state.log(
      'warn',
      'source namespace still exists but produced no registration; not deleting',
      { secret: s.metadata.name, namespace: key },
    );
  }
}

/** Deletes the unpinned registrations recorded against `key` that `which` picks, UID-preconditioned. */
function deleteRecorded(
  state: PlanState,
  key: string,
  reason: 'namespace_gone' | 'stale_uid',
  which: (s: RegistrarSecret) => boolean,
) {
  for (const s of state.recordedAgainst(key)) {
    if (!which(s) || state.leavesPinned(s, key)) continue;
    state.act({
      type: 'delete',
      namespace: key,
      name: s.metadata.name,
      uid: s.metadata.uid,
      reason,
    });
  }
}

/** The source namespace is provably gone: its unpinned registrations go. */
export function collectGone(state: PlanState, key: string) {
  deleteRecorded(state, key, 'namespace_gone', () => true);
}

/** A namespace recreated under the same name is not the one its old registrations came from. */
export function collectStaleUid(state: PlanState, ns: NamespaceObject) {
  const uid = ns.metadata.uid;
  if (!uid) return;
  deleteRecorded(state, ns.metadata.name, 'stale_uid', s => {
    const recorded = s.metadata.labels?.[state.keys.sourceNamespaceUid];
    return !!recorded && recorded !== uid;
  });
}

/** A demoted registration goes once it has been demoted longer than the TTL (when one is set). */
function expireDemoted(
  state: PlanState,
  key: string,
  s: RegistrarSecret,
  applied: string,
) {
  const name = s.metadata.name;
  const ttl = state.options.demotedTtlMs;
  if (ttl <= 0) {
    state.log('debug', 'superseded registration is already demoted', {
      secret: name,
      supersededBy: applied,
    });
    return;
  }
  const since = parseStaleSince(s.metadata.labels?.[state.keys.staleSince]);
  if (!since) {
    state.log(
      'warn',
      'demoted registration has no readable stale-since; keeping it',
      { secret: name, label: state.keys.staleSince },
    );
    return;
  }
  if (state.observed.now.getTime() - since.getTime() > ttl) {
    state.act({
      type: 'delete',
      namespace: key,
      name,
      uid: s.metadata.uid,
      resourceVersion: s.metadata.resourceVersion,
      reason: 'demoted_ttl',
    });
  }
}

/** Parks the secret-type label (Argo CD stops seeing it) and records why and since when. */
function demote(
  state: PlanState,
  key: string,
  s: RegistrarSecret,
  applied: string,
) {
  const { keys } = state;
  const demoted = cloneSecret(s);
  const l = { ...(s.metadata.labels ?? {}) };
  if (l[ARGO_SECRET_TYPE_LABEL] !== undefined) {
    l[keys.orphanedSecretType] = l[ARGO_SECRET_TYPE_LABEL];
    delete l[ARGO_SECRET_TYPE_LABEL];
  }
  const invalid = labelValueError(applied);
  if (invalid) {
    state.log(
      'warn',
      'superseded-by would not be a valid label value; demoting without it',
      { secret: s.metadata.name, supersededBy: applied, reason: invalid },
    );
  } else {
    l[keys.supersededBy] = applied;
  }
  l[keys.staleSince] = formatStaleSince(state.observed.now);
  demoted.metadata.labels = l;
  state.act({
    type: 'demote',
    namespace: key,
    secret: demoted,
    supersededBy: applied,
  });
}

/**
 * The namespace registered `applied`; its other registrations were superseded (a rename):
 * demote them (reversible), or delete a long-demoted one when a TTL is set.
 */
export function collectSuperseded(
  state: PlanState,
  key: string,
  applied: string,
) {
  for (const s of state.recordedAgainst(key)) {
    if (s.metadata.name === applied) continue;
    if (state.leavesPinned(s, key)) continue;
    if (s.metadata.labels?.[state.keys.orphanedSecretType]) {
      expireDemoted(state, key, s, applied);
    } else {
      demote(state, key, s, applied);
    }
  }
}

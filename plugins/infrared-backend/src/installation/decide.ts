/**
 * The one-installation rule as a pure function: given the Lease as read (or its absence), what this
 * installation remembers of it and the time, what to do. No I/O: guard.ts reads and writes the
 * Lease and applies the verdict.
 *
 * Expiry follows client-go's leader election: another installation's Lease is taken over only once
 * this backend has seen the same record (holder, renewTime, resourceVersion) unchanged for a whole
 * lease duration on its own clock, never trusting the holder's clock for that. One shortcut: a
 * record whose renewTime is older than two lease durations by this clock (the other installation
 * stopped long ago) is expired at once, so a restart with a new id does not wait a duration.
 */

/** The Lease as read, reduced to what the decision needs. */
export interface LeaseRecord {
  /** spec.holderIdentity: the holding installation's id; '' or absent when released. */
  holder: string;
  /** spec.renewTime, in ms since the epoch (the holder's clock); undefined when absent. */
  renewTimeMs?: number;
  /** spec.leaseDurationSeconds in ms; undefined when absent (ours then applies). */
  durationMs?: number;
  /** metadata.resourceVersion: changes with every write. */
  resourceVersion: string;
}

/** What this backend remembers of the Lease between two looks. */
export interface LeaseMemory {
  /** The record's key (holder, renewTime, resourceVersion) at the last look or write. */
  key: string;
  /** When (this clock) that key was first seen or written. */
  seenAt: number;
}

export interface DecisionInput {
  /** This installation's id. */
  me: string;
  lease: LeaseRecord | undefined;
  memory: LeaseMemory | undefined;
  now: number;
  /** This installation's lease duration, for a record that states none. */
  leaseDurationMs: number;
}

export type Verdict =
  /** No Lease: create it, held by us. */
  | { action: 'create' }
  /** Ours, and nobody renewed it since we last looked: renew it (a replica of ours may be gone). */
  | { action: 'renew' }
  /** Ours, and a replica of this installation renewed it since we last looked: nothing to write. */
  | { action: 'hold' }
  /** Another installation's, expired (or released): take it over. `from` is '' when released. */
  | { action: 'take-over'; from: string }
  /** Another installation's, live: neither reconcile nor write. */
  | { action: 'refuse'; holder: string; expiresInMs: number };

export interface Decision {
  verdict: Verdict;
  /** What to remember until the next look (a write replaces it with the written record's key). */
  memory: LeaseMemory | undefined;
}

/** The identity of one version of the record: any write changes it. */
export function leaseKey(lease: LeaseRecord): string {
  return `${lease.holder}|${lease.renewTimeMs ?? ''}|${lease.resourceVersion}`;
}

export function decide(input: DecisionInput): Decision {
  const { me, lease, memory, now } = input;
  if (!lease) return { verdict: { action: 'create' }, memory: undefined };
  const key = leaseKey(lease);
  const seenAt = memory?.key === key ? memory.seenAt : now;
  const remembered: LeaseMemory = { key, seenAt };
  if (lease.holder === me) {
    // Unchanged since our last look (or our own write): nobody renewed it meanwhile, so we do.
    // Changed without us: a replica of this installation renewed it; one writer per period is enough.
    const renewedByReplica = memory !== undefined && memory.key !== key;
    return {
      verdict: renewedByReplica ? { action: 'hold' } : { action: 'renew' },
      memory: remembered,
    };
  }
  if (!lease.holder) {
    return { verdict: { action: 'take-over', from: '' }, memory: remembered };
  }
  const durationMs = lease.durationMs ?? input.leaseDurationMs;
  const unchangedFor = now - seenAt;
  const staleByRecord =
    lease.renewTimeMs !== undefined && now - lease.renewTimeMs > 2 * durationMs;
  if (unchangedFor >= durationMs || staleByRecord) {
    return {
      verdict: { action: 'take-over', from: lease.holder },
      memory: remembered,
    };
  }
  return {
    verdict: {
      action: 'refuse',
      holder: lease.holder,
      expiresInMs: durationMs - unchangedFor,
    },
    memory: remembered,
  };
}

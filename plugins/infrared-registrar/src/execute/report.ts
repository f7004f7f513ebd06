import { auditRegistrations, isOwned } from '../audit';
import { registrarKeys } from '../labels';
import type { RegistrarLogger } from '../logger';
import type { RegistrarMetrics } from '../metrics';
import type { RegistrarOptions } from '../options';
import type { RegistrarScope } from '../scope';
import { withData } from '../secrets';
import type {
  RegistrarChildOutcome,
  RegistrarConflict,
  RegistrarSecret,
} from '../types';

/** @public */
export interface RegistrarPassReport {
  startedAt: string;
  durationMs: number;
  /** The reads alone (LISTs and namespace GETs): the floor a pass cannot go under. */
  readMs: number;
  /** Planning, in memory. */
  planMs: number;
  /** Requests sent, in all and by verb. */
  requests: number;
  requestsByVerb: Record<string, number>;
  /** Writes sent (create, update, delete), attempted. */
  writes: number;
  /** Secrets whose data was read this pass (new or changed since the last pass). */
  fetched: number;
  /** resourceVersion of the Secret list (metadata reads), where a watch may start. */
  resourceVersion?: string;
  /** The managed namespaces the pass listed (for a watch's filter); none in a scoped pass. */
  managedNamespaces: string[];
  /** A pass scoped to what a watch saw change: what it read again and planned; none: a full pass. */
  scope?: RegistrarScope;
  keys: number;
  created: number;
  updated: number;
  demoted: number;
  deleted: number;
  conflicts: RegistrarConflict[];
  /** Per-namespace failures; the other namespaces were still reconciled. */
  errors: string[];
  /** What the pass did with each child (reconcile key), in key order; see childOutcomes. */
  outcomes: RegistrarChildOutcome[];
  dryRun: boolean;
  aborted: boolean;
}

export function emptyPassReport(
  startedAt: string,
  dryRun: boolean,
): RegistrarPassReport {
  return {
    startedAt,
    durationMs: 0,
    readMs: 0,
    planMs: 0,
    requests: 0,
    requestsByVerb: {},
    writes: 0,
    fetched: 0,
    managedNamespaces: [],
    keys: 0,
    created: 0,
    updated: 0,
    demoted: 0,
    deleted: 0,
    conflicts: [],
    errors: [],
    outcomes: [],
    dryRun,
    aborted: false,
  };
}

/** The requests counted between two snapshots of a counter, by verb (verbs with none left out). */
export function requestsSince(
  before: Record<string, number>,
  after: Record<string, number>,
): Record<string, number> {
  const byVerb: Record<string, number> = {};
  for (const [verb, n] of Object.entries(after)) {
    const d = n - (before[verb] ?? 0);
    if (d) byVerb[verb] = d;
  }
  return byVerb;
}

/** Gauges from the owned Secrets of the target namespace as they now stand. */
export function auditTarget(
  target: Iterable<RegistrarSecret>,
  options: RegistrarOptions,
  now: Date,
  deps: { logger: RegistrarLogger; metrics?: RegistrarMetrics },
): void {
  const owned = [...target].map(withData).filter(s => isOwned(s, options));
  const audit = auditRegistrations(owned, options, now);
  deps.metrics?.registrations(audit.registrations);
  deps.metrics?.unrouted(audit.unrouted.length);
  for (const name of audit.unrouted) {
    deps.logger.warn(
      'owned cluster secret records no source namespace; it can never be collected',
      {
        secret: name,
        label: registrarKeys(options.labelPrefix).sourceNamespace,
        fix: 'restore the label, or delete the secret if the cluster is gone',
      },
    );
  }
}

/** One line per pass: an error naming the failures, else a debug summary. */
export function logPassSummary(
  logger: RegistrarLogger,
  report: RegistrarPassReport,
): void {
  const summary = {
    keys: report.keys,
    created: report.created,
    updated: report.updated,
    demoted: report.demoted,
    deleted: report.deleted,
    conflicts: report.conflicts.length,
    errors: report.errors.length,
    requests: report.requests,
    durationMs: report.durationMs,
    readMs: report.readMs,
    planMs: report.planMs,
    dryRun: report.dryRun,
    ...(report.scope && {
      scope: [
        ...report.scope.namespaces,
        ...report.scope.targetNames.map(n => `target/${n}`),
      ].join(','),
    }),
  };
  if (report.errors.length) {
    logger.error('registrar pass completed with errors', {
      ...summary,
      error: report.errors.join('; '),
    });
  } else {
    logger.debug('registrar pass completed', summary);
  }
}

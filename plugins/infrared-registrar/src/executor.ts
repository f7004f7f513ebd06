import type { RegistrarApi } from './api';
import { emit, type RegistrarLogger } from './logger';
import type { RegistrarMetrics } from './metrics';
import type { RegistrarOptions } from './options';
import {
  dryRunLog,
  nextRead,
  planRegistrarPass,
  type ReadProgress,
} from './plan';
import { secretDataCacheFor, type SecretDataCache } from './reads';
import type { NamespaceLookup, RegistrarPlan, RegistrarSecret } from './types';
import { listWorld, readFor, type ListedWorld } from './execute/observe';
import {
  auditTarget,
  emptyPassReport,
  logPassSummary,
  requestsSince,
  type RegistrarPassReport,
} from './execute/report';
import { writePlan } from './execute/write';
import { childOutcomes, type RegistrarWriteResult } from './execute/outcomes';

export { SOURCE_SECRET_FIELD_SELECTOR } from './plan';
export type { RegistrarPassReport } from './execute/report';
export { childOutcomes, type RegistrarWriteResult } from './execute/outcomes';

/** @public */
export interface RunRegistrarPassDeps {
  logger: RegistrarLogger;
  metrics?: RegistrarMetrics;
  signal?: AbortSignal;
  now?: () => Date;
  /** Writes in flight at once. Default 8. */
  concurrency?: number;
  /** Secret data kept between passes; default one per `api`. */
  cache?: SecretDataCache;
}

/**
 * The pass's first reads, recorded in the report; undefined (said and reported) when they failed,
 * and then nothing is planned or changed.
 */
async function readWorld(
  api: RegistrarApi,
  options: RegistrarOptions,
  cache: SecretDataCache,
  report: RegistrarPassReport,
  deps: RunRegistrarPassDeps,
): Promise<ListedWorld | undefined> {
  const readStart = Date.now();
  try {
    const world = await listWorld(api, options, cache, deps.signal);
    report.readMs = Date.now() - readStart;
    report.fetched = world.fetched;
    report.resourceVersion = world.resourceVersion;
    report.managedNamespaces = world.namespaces.map(n => n.metadata.name);
    return world;
  } catch (e) {
    report.readMs = Date.now() - readStart;
    const message = `could not list namespaces and secrets: ${
      (e as Error).message
    }`;
    deps.logger.error('registrar pass failed; nothing was changed', {
      error: message,
    });
    report.errors.push(message);
    return undefined;
  }
}

/**
 * Plans, sends the reads the plan asks for (namespace GETs, the target namespace's names) and
 * plans again, until the planner needs nothing more (`nextRead`). The last plan and the Secrets
 * it saw.
 */
async function planWithReads(
  api: RegistrarApi,
  options: RegistrarOptions,
  world: ListedWorld,
  report: RegistrarPassReport,
  deps: RunRegistrarPassDeps,
): Promise<{ plan: RegistrarPlan; secrets: RegistrarSecret[] }> {
  const clock = deps.now ?? (() => new Date());
  let secrets = world.secrets;
  const namespaceLookups: Record<string, NamespaceLookup> = {};
  const progress: ReadProgress = {
    round: 0,
    targetListed: false,
    canListTarget: !!api.listSecretMetadata,
  };
  const plan = () => {
    progress.round++;
    const planStart = Date.now();
    const planned = planRegistrarPass(
      { namespaces: world.namespaces, secrets, namespaceLookups, now: clock() },
      options,
    );
    report.planMs += Date.now() - planStart;
    return planned;
  };
  let current = plan();
  for (;;) {
    const read = deps.signal?.aborted
      ? undefined
      : nextRead(current, progress, options);
    if (!read) return { plan: current, secrets };
    const readStart = Date.now();
    const answer = await readFor(api, read, secrets, options, deps);
    report.readMs += Date.now() - readStart;
    if ('lookups' in answer) {
      Object.assign(namespaceLookups, answer.lookups);
    } else {
      progress.targetListed = true;
      if (!answer.secrets.length) continue;
      secrets = [...secrets, ...answer.secrets];
    }
    current = plan();
  }
}

/** What the plan decided that a pass reports before any write: logs, refusals, errors. */
function reportPlan(
  plan: RegistrarPlan,
  report: RegistrarPassReport,
  deps: RunRegistrarPassDeps,
) {
  report.keys = plan.keys.length;
  for (const entry of plan.logs) emit(deps.logger, entry);
  for (const e of plan.errors)
    report.errors.push(`${e.namespace}: ${e.message}`);
  for (const name of plan.needs) {
    report.errors.push(`${name}: its existence could not be established`);
  }
  report.conflicts.push(...plan.conflicts);
  for (const c of plan.conflicts) deps.metrics?.conflict(c.reason);
}

/**
 * One registrar pass, a thin executor around the pure planner (./plan): a constant number of reads
 * (LIST managed namespaces, one LIST of Secrets across namespaces; then only what the planner asks
 * for), the plan, then its writes (deletes UID-preconditioned, updates resourceVersion-
 * preconditioned, creates). A refused write is reported and retried by the next pass; a failure in
 * one namespace is logged and reported, and the others go on.
 *
 * @public
 */
export async function runRegistrarPass(
  api: RegistrarApi,
  options: RegistrarOptions,
  deps: RunRegistrarPassDeps,
): Promise<RegistrarPassReport> {
  const { logger, signal } = deps;
  const started = Date.now();
  const before = api.counter.byVerb();
  const report = emptyPassReport(
    new Date(started).toISOString(),
    options.dryRun,
  );
  const finish = () => {
    report.requestsByVerb = requestsSince(before, api.counter.byVerb());
    report.requests = Object.values(report.requestsByVerb).reduce(
      (a, b) => a + b,
      0,
    );
    report.durationMs = Date.now() - started;
    return report;
  };

  const cache = deps.cache ?? secretDataCacheFor(api);
  const world = await readWorld(api, options, cache, report, deps);
  if (!world) return finish();
  const { plan, secrets } = await planWithReads(
    api,
    options,
    world,
    report,
    deps,
  );
  reportPlan(plan, report, deps);
  if (signal?.aborted) {
    report.aborted = true;
    return finish();
  }

  const target = new Map<string, RegistrarSecret>();
  for (const s of secrets) {
    if (s.metadata.namespace === options.targetNamespace)
      target.set(s.metadata.name, s);
  }
  const results: RegistrarWriteResult[] = [];
  if (options.dryRun) {
    for (const a of plan.actions) emit(logger, dryRunLog(a));
  } else {
    await writePlan(
      {
        ...deps,
        api,
        options,
        report,
        target,
        cache,
        results,
        concurrency: deps.concurrency ?? 8,
      },
      plan,
    );
    if (signal?.aborted) report.aborted = true;
  }
  report.outcomes = childOutcomes(plan, results, { dryRun: options.dryRun });
  auditTarget(
    target.values(),
    options,
    (deps.now ?? (() => new Date()))(),
    deps,
  );
  finish();
  logPassSummary(logger, report);
  return report;
}

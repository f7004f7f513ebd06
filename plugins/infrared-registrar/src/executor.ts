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
import { sweepStringMemos } from './memo';
import { canScope, readScoped } from './execute/scoped';
import { registrarViewFor, type RegistrarScope } from './scope';
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
  /**
   * Only what changed (a watch event): those namespaces and target Secrets are read again and
   * those namespaces planned, against what the last full pass saw for the rest. A full pass when
   * there was none yet, or the API cannot read one namespace. Default: a full pass.
   */
  scope?: RegistrarScope;
}

/** What a pass plans from: its reads, and for a scoped pass the keys it plans. */
type PassWorld = ListedWorld & {
  namespaceLookups?: Record<string, NamespaceLookup>;
  onlyKeys?: string[];
};

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

/** A scoped pass's reads; undefined when they failed (the pass is then a full one). */
async function readScopedWorld(
  api: RegistrarApi,
  options: RegistrarOptions,
  scope: RegistrarScope,
  cache: SecretDataCache,
  report: RegistrarPassReport,
  deps: RunRegistrarPassDeps,
): Promise<PassWorld | undefined> {
  const readStart = Date.now();
  try {
    const view = registrarViewFor(api);
    const world = await readScoped(
      api,
      options,
      view,
      cache,
      scope,
      deps.signal,
    );
    report.readMs = Date.now() - readStart;
    report.fetched = world.fetched;
    report.scope = {
      namespaces: world.onlyKeys,
      targetNames: scope.targetNames,
    };
    return world;
  } catch (e) {
    deps.logger.debug('scoped reads failed; passing in full', {
      error: (e as Error).message,
    });
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
  world: PassWorld,
  report: RegistrarPassReport,
  deps: RunRegistrarPassDeps,
): Promise<{ plan: RegistrarPlan; secrets: RegistrarSecret[] }> {
  const clock = deps.now ?? (() => new Date());
  let secrets = world.secrets;
  const namespaceLookups = { ...world.namespaceLookups };
  const { onlyKeys } = world;
  const progress: ReadProgress = {
    round: 0,
    targetListed: false,
    canListTarget: !!api.listSecretMetadata,
    scoped: !!onlyKeys,
  };
  const plan = () => {
    progress.round++;
    const planStart = Date.now();
    const planned = planRegistrarPass(
      {
        namespaces: world.namespaces,
        secrets,
        namespaceLookups,
        onlyKeys,
        now: clock(),
      },
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

/** What the next scoped pass plans against; after a full pass, the memos forget what it did not use. */
function keepView(
  view: ReturnType<typeof registrarViewFor>,
  world: PassWorld,
  target: Map<string, RegistrarSecret>,
) {
  if (world.onlyKeys) {
    view.target = target;
    return;
  }
  view.replace(world.namespaces, target);
  // a full pass asked for every live kubeconfig and certificate
  sweepStringMemos();
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
  const view = registrarViewFor(api);
  const world: PassWorld | undefined =
    (deps.scope &&
      canScope(api, view) &&
      (await readScopedWorld(api, options, deps.scope, cache, report, deps))) ||
    (await readWorld(api, options, cache, report, deps));
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
  keepView(view, world, target);
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

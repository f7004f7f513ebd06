import { forEachLimited } from '@infrared-clusters/infrared-kube';
import type { RegistrarApi } from '../api';
import { emit, type RegistrarLogger } from '../logger';
import type { RegistrarMetrics } from '../metrics';
import type { RegistrarOptions } from '../options';
import { writeBatches, writeFailure, writtenLog } from '../plan';
import type { SecretDataCache } from '../reads';
import type { RegistrarAction, RegistrarPlan, RegistrarSecret } from '../types';
import { applyRegistrarAction } from './apply';
import type { RegistrarWriteResult } from './outcomes';
import type { RegistrarPassReport } from './report';

/** What the writes of a pass update as they land. */
export interface WriteContext {
  api: RegistrarApi;
  options: RegistrarOptions;
  report: RegistrarPassReport;
  /** The target namespace as it stands, for the closing audit. */
  target: Map<string, RegistrarSecret>;
  cache: SecretDataCache;
  logger: RegistrarLogger;
  metrics?: RegistrarMetrics;
  signal?: AbortSignal;
  /** Writes in flight at once. */
  concurrency: number;
  /** What became of each write, for the pass's outcomes per child. */
  results?: RegistrarWriteResult[];
}

const COUNTED = {
  create: 'created',
  update: 'updated',
  demote: 'demoted',
  delete: 'deleted',
} as const;

async function write(ctx: WriteContext, a: RegistrarAction): Promise<void> {
  const { report, target, cache, options } = ctx;
  report.writes++;
  try {
    const stored = await applyRegistrarAction(
      ctx.api,
      a,
      options.targetNamespace,
      ctx.signal,
    );
    if (a.type === 'delete') {
      target.delete(a.name);
      cache.delete(options.targetNamespace, a.name);
    } else if (stored) {
      target.set(stored.metadata.name, stored);
      cache.set(stored);
    }
    report[COUNTED[a.type]]++;
    ctx.results?.push({ action: a, status: 'written' });
    if (a.type === 'update' && a.adoption) ctx.metrics?.adoption();
    emit(ctx.logger, writtenLog(a));
  } catch (e) {
    const failure = writeFailure(a, e);
    if (failure.conflict) {
      report.conflicts.push(failure.conflict);
      ctx.metrics?.conflict(failure.conflict.reason);
    }
    if (failure.gone && a.type === 'delete') target.delete(a.name);
    if (failure.log) emit(ctx.logger, failure.log);
    if (failure.error) report.errors.push(failure.error);
    ctx.results?.push(writeResult(a, failure));
  }
}

function writeResult(
  action: RegistrarAction,
  failure: ReturnType<typeof writeFailure>,
): RegistrarWriteResult {
  if (failure.conflict) {
    return { action, status: 'conflict', conflict: failure.conflict };
  }
  if (failure.error) return { action, status: 'failed', error: failure.error };
  // a delete's object already gone is what it wanted
  return { action, status: failure.gone ? 'written' : 'left' };
}

/**
 * Sends the plan's writes, batch after batch (deletes, then updates and demotions, then creates),
 * `concurrency` at once. A refused write is reported as the planner says and retried by the next
 * pass; the others go on.
 */
export async function writePlan(
  ctx: WriteContext,
  plan: RegistrarPlan,
): Promise<void> {
  for (const batch of writeBatches(plan.actions)) {
    await forEachLimited(
      batch,
      ctx.concurrency,
      a => write(ctx, a),
      ctx.signal,
    );
  }
}

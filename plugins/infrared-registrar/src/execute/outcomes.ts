import type {
  ChildOutcomeKind,
  RegistrarAction,
  RegistrarChildOutcome,
  RegistrarConflict,
  RegistrarPlan,
  RegistrarPlanChild,
} from '../types';

/**
 * What became of one planned write: `written`; `conflict` (a refusal: lost a race); `failed` (the
 * API server refused it otherwise: retried next pass); `left` (a delete whose object changed
 * identity: decided again next pass). A planned write with no result was never sent (the pass
 * stopped, or a dry run).
 *
 * @public
 */
export interface RegistrarWriteResult {
  action: RegistrarAction;
  status: 'written' | 'conflict' | 'failed' | 'left';
  conflict?: RegistrarConflict;
  /** `failed`: `<namespace>: <verb>: <message>`. */
  error?: string;
}

/** Outcomes of writes that succeeded, the strongest first. */
const WRITTEN: Record<RegistrarAction['type'], ChildOutcomeKind> = {
  create: 'registered',
  update: 'updated',
  demote: 'updated',
  delete: 'removed',
};
const RANK: ChildOutcomeKind[] = ['registered', 'updated', 'removed'];

function secretOf(a: RegistrarAction): string {
  return a.type === 'delete' ? a.name : a.secret.metadata.name;
}

function writtenMessage(a: RegistrarAction): string {
  switch (a.type) {
    case 'create':
      return `Argo CD Secret ${secretOf(a)} created for ${a.server}`;
    case 'update':
      return `Argo CD Secret ${secretOf(a)} ${
        a.adoption ? 'adopted and ' : ''
      }updated for ${a.server}`;
    case 'demote':
      return `Argo CD Secret ${secretOf(a)} demoted: superseded by ${
        a.supersededBy
      }`;
    default:
      return `Argo CD Secret ${secretOf(a)} deleted (${a.reason})`;
  }
}

/** The outcome of a key from its writes, undefined when it had none. */
function fromWrites(
  base: Pick<RegistrarChildOutcome, 'namespace' | 'cluster'>,
  actions: RegistrarAction[],
  results: Map<RegistrarAction, RegistrarWriteResult>,
  dryRun: boolean,
): RegistrarChildOutcome | undefined {
  if (!actions.length) return undefined;
  const cluster =
    base.cluster ??
    actions.map(a => ('cluster' in a ? a.cluster : undefined)).find(Boolean);
  const at = { ...base, ...(cluster && { cluster }) };
  const outcomes = actions.map(a => ({
    a,
    r: dryRun
      ? ({ action: a, status: 'written' } as RegistrarWriteResult)
      : results.get(a),
  }));
  const refused = outcomes.find(o => o.r?.status === 'conflict');
  if (refused?.r?.conflict) {
    const { reason, message } = refused.r.conflict;
    return { ...at, outcome: 'skipped', reason, message };
  }
  const failed = outcomes.find(o => o.r?.status === 'failed');
  if (failed) {
    return { ...at, outcome: 'failed', message: failed.r!.error };
  }
  const unsent = outcomes.find(o => !o.r);
  if (unsent) {
    return {
      ...at,
      outcome: 'failed',
      message: `the pass stopped before it could ${
        unsent.a.type
      } Argo CD Secret ${secretOf(unsent.a)}; the next pass does`,
    };
  }
  const written = outcomes.filter(o => o.r!.status === 'written');
  if (!written.length) return { ...at, outcome: 'unchanged' };
  const best = RANK.map(kind =>
    written.find(o => WRITTEN[o.a.type] === kind),
  ).find(Boolean)!;
  const outcome = WRITTEN[best.a.type];
  return {
    ...at,
    outcome,
    ...(best.a.type === 'delete' && { reason: best.a.reason }),
    message: writtenMessage(best.a),
  };
}

/**
 * Pure: what a pass did with each child (reconcile key), in key order, from its plan and the
 * results of its writes. A key's own failure (an unconfirmed namespace) comes first, then a
 * refusal (the planner's conflicts, then a refused write), then the planner's skip, then its
 * writes; a key with none of those was already up to date (`unchanged`). In a dry run the planned
 * writes count as made.
 *
 * @public
 */
export function childOutcomes(
  plan: Pick<RegistrarPlan, 'keys' | 'actions' | 'conflicts' | 'errors'> &
    Partial<Pick<RegistrarPlan, 'children'>>,
  results: RegistrarWriteResult[],
  options: { dryRun?: boolean } = {},
): RegistrarChildOutcome[] {
  const byAction = new Map(results.map(r => [r.action, r]));
  const children: RegistrarPlanChild[] =
    plan.children ?? plan.keys.map(namespace => ({ namespace }));
  return children.map((child): RegistrarChildOutcome => {
    const { namespace } = child;
    const base = {
      namespace,
      ...(child.cluster && { cluster: child.cluster }),
    };
    const error = plan.errors.find(e => e.namespace === namespace);
    if (error) return { ...base, outcome: 'failed', message: error.message };
    const conflict = plan.conflicts.find(c => c.namespace === namespace);
    if (conflict) {
      return {
        ...base,
        cluster: child.cluster ?? conflict.cluster,
        outcome: 'skipped',
        reason: conflict.reason,
        message: conflict.message,
      };
    }
    const writes = fromWrites(
      base,
      plan.actions.filter(a => a.namespace === namespace),
      byAction,
      !!options.dryRun,
    );
    if (child.skip && (!writes || writes.outcome === 'unchanged')) {
      return { ...base, outcome: 'skipped', ...child.skip };
    }
    return writes ?? { ...base, outcome: 'unchanged' };
  });
}

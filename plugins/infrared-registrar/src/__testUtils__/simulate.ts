import { planRegistrarPass } from '../plan';
import type { RegistrarOptions } from '../options';
import { withData } from '../secrets';
import type {
  RegistrarObserved,
  RegistrarPlan,
  RegistrarSecret,
} from '../types';

let rv = 5000;

/** The observation after a plan's actions landed, as an API server would store them. */
export function applyPlan(
  observed: RegistrarObserved,
  plan: RegistrarPlan,
): RegistrarObserved {
  const byKey = new Map<string, RegistrarSecret>();
  const k = (s: RegistrarSecret) =>
    `${s.metadata.namespace}/${s.metadata.name}`;
  for (const s of observed.secrets) byKey.set(k(s), s);
  for (const a of plan.actions) {
    if (a.type === 'delete') {
      for (const [key, s] of byKey) {
        if (s.metadata.name === a.name && s.metadata.namespace === 'argocd')
          byKey.delete(key);
      }
      continue;
    }
    const stored = JSON.parse(
      JSON.stringify(withData(a.secret)),
    ) as RegistrarSecret;
    stored.metadata.resourceVersion = String(++rv);
    stored.metadata.uid ??= `uid-${stored.metadata.name}-${rv}`;
    byKey.set(k(stored), stored);
  }
  return { ...observed, secrets: [...byKey.values()] };
}

/** Plans, answering the plan's namespace lookups from `existing` (names absent there are gone). */
export function planWithLookups(
  observed: RegistrarObserved,
  options: RegistrarOptions,
  existing: Record<string, RegistrarObserved['namespaces'][number]> = {},
): RegistrarPlan {
  let current = observed;
  let plan = planRegistrarPass(current, options);
  for (let i = 0; i < 3 && plan.needs.length; i++) {
    const lookups = { ...(current.namespaceLookups ?? {}) };
    for (const name of plan.needs) lookups[name] = existing[name] ?? null;
    current = { ...current, namespaceLookups: lookups };
    plan = planRegistrarPass(current, options);
  }
  return plan;
}

/** Plans and applies until nothing changes (at most 5 passes); the settled observation. */
export function settle(
  observed: RegistrarObserved,
  options: RegistrarOptions,
): RegistrarObserved {
  let current = observed;
  for (let i = 0; i < 5; i++) {
    const plan = planWithLookups(current, options);
    if (!plan.actions.length) return current;
    current = applyPlan(current, plan);
  }
  throw new Error('did not settle');
}

import { registrarKeys } from '../labels';
import type { RegistrarOptions } from '../options';
import type { RegistrarPlan, RegistrarSecret } from '../types';

/**
 * Secret types that never hold a provider's kubeconfig and are large or numerous (Helm releases,
 * service-account tokens): left out of the one cluster-wide Secret LIST a pass makes.
 *
 * @public
 */
export const SOURCE_SECRET_FIELD_SELECTOR =
  'type!=kubernetes.io/service-account-token,type!=helm.sh/release.v1';

/** Rounds of "plan, GET the namespaces it needs, plan again" before deciding without them. */
export const MAX_LOOKUP_ROUNDS = 3;

/** A read a plan asks for before its writes may go (then it is planned again). */
export type RegistrarRead =
  /** `GET namespaces/<name>` for each: the plan depends on whether they exist. */
  | { type: 'getNamespaces'; names: string[] }
  /**
   * `LIST secrets -n <target>` as metadata: the names the field-selected LIST hides; with `names`
   * (a scoped pass), only those names are read, one request each.
   */
  | { type: 'listTargetNames'; namespace: string; names?: string[] };

/** Where a pass stands in its reads. */
export interface ReadProgress {
  /** Plans made so far (1 after the first). */
  round: number;
  /** The target namespace's names were listed already. */
  targetListed: boolean;
  /** The API can list the target namespace's names (`listSecretMetadata`). */
  canListTarget: boolean;
  /** A scoped pass: the names about to be created are read, not the whole target namespace. */
  scoped?: boolean;
}

/**
 * What to read before the plan's writes, or undefined when the plan is final. Before creating,
 * the target namespace's names (once): a Helm release or token Secret called cluster-<name>,
 * hidden from the pass's LIST, is taken too, and seen it is a not_managed refusal rather than a
 * failed CREATE on every pass. Then the namespaces the plan needs, for a bounded number of rounds;
 * after those it decides without them (and reports them).
 */
export function nextRead(
  plan: Pick<RegistrarPlan, 'needs' | 'actions'>,
  progress: ReadProgress,
  options: Pick<RegistrarOptions, 'targetNamespace'>,
): RegistrarRead | undefined {
  if (
    plan.needs.length === 0 &&
    !progress.targetListed &&
    progress.canListTarget &&
    plan.actions.some(a => a.type === 'create')
  ) {
    if (!progress.scoped) {
      return { type: 'listTargetNames', namespace: options.targetNamespace };
    }
    const names = plan.actions.flatMap(a =>
      a.type === 'create' ? [a.secret.metadata.name] : [],
    );
    return {
      type: 'listTargetNames',
      namespace: options.targetNamespace,
      names,
    };
  }
  const rounds = MAX_LOOKUP_ROUNDS + (progress.targetListed ? 1 : 0);
  if (plan.needs.length === 0 || progress.round >= rounds) return undefined;
  return { type: 'getNamespaces', names: plan.needs };
}

/**
 * Target-namespace Secrets the field-selected LIST left out, as metadata only and without the
 * ownership label: they hold a name, and nothing here may ever update, demote or delete them.
 */
export function hiddenTargetSecrets(
  listed: RegistrarSecret[],
  seen: RegistrarSecret[],
  options: Pick<RegistrarOptions, 'targetNamespace' | 'labelPrefix'>,
): RegistrarSecret[] {
  const known = new Set(
    seen
      .filter(s => s.metadata.namespace === options.targetNamespace)
      .map(s => s.metadata.name),
  );
  const managedBy = registrarKeys(options.labelPrefix).managedBy;
  return listed
    .filter(s => !known.has(s.metadata.name))
    .map(s => {
      const labels = { ...(s.metadata.labels ?? {}) };
      delete labels[managedBy];
      return {
        metadata: {
          ...s.metadata,
          namespace: options.targetNamespace,
          labels,
        },
        type: s.type ?? 'hidden',
        data: {},
      };
    });
}

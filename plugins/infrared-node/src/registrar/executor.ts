import { isAlreadyExists, isConflict, isNotFound } from '../kube/errors';
import { forEachLimited } from '../concurrency';
import type { RegistrarApi } from './api';
import { auditRegistrations, isOwned } from './audit';
import { registrarKeys } from './labels';
import { emit, type RegistrarLogger } from './logger';
import type { RegistrarMetrics } from './metrics';
import type { RegistrarOptions } from './options';
import { planRegistrarPass } from './plan';
import {
  completeSecrets,
  secretDataCacheFor,
  type SecretDataCache,
} from './reads';
import { withData } from './secrets';
import type {
  NamespaceLookup,
  NamespaceObject,
  RegistrarAction,
  RegistrarConflict,
  RegistrarObserved,
  RegistrarPlan,
  RegistrarSecret,
} from './types';

/**
 * Secret types that never hold a provider's kubeconfig and are large or numerous (Helm releases,
 * service-account tokens): left out of the one cluster-wide Secret LIST a pass makes.
 */
export const SOURCE_SECRET_FIELD_SELECTOR =
  'type!=kubernetes.io/service-account-token,type!=helm.sh/release.v1';

/** Rounds of "plan, GET the namespaces it needs, plan again" before deciding without them. */
const MAX_LOOKUP_ROUNDS = 3;

/**
 * Target-namespace Secrets the field-selected LIST left out, as metadata only and without the
 * ownership label: they hold a name, and nothing here may ever update, demote or delete them.
 */
function hiddenTargetSecrets(
  listed: RegistrarSecret[],
  seen: RegistrarSecret[],
  options: RegistrarOptions,
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
  /** The managed namespaces the pass listed (for a watch's filter). */
  managedNamespaces: string[];
  keys: number;
  created: number;
  updated: number;
  demoted: number;
  deleted: number;
  conflicts: RegistrarConflict[];
  /** Per-namespace failures; the other namespaces were still reconciled. */
  errors: string[];
  dryRun: boolean;
  aborted: boolean;
}

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

/** Deletes first (they free names), then updates and demotions, then creates. */
const PHASE: Record<RegistrarAction['type'], number> = {
  delete: 0,
  update: 1,
  demote: 1,
  create: 2,
};
const phase = (a: RegistrarAction) => PHASE[a.type];

function describe(a: RegistrarAction): {
  verb: string;
  fields: Record<string, string>;
} {
  switch (a.type) {
    case 'create':
      return {
        verb: 'create cluster secret',
        fields: {
          cluster: a.cluster,
          namespace: a.namespace,
          server: a.server,
        },
      };
    case 'update':
      return {
        verb: a.adoption
          ? 'adopt and update cluster secret'
          : 'update cluster secret',
        fields: {
          cluster: a.cluster,
          namespace: a.namespace,
          server: a.server,
        },
      };
    case 'demote':
      return {
        verb: 'demote superseded cluster secret',
        fields: {
          secret: a.secret.metadata.name,
          supersededBy: a.supersededBy,
          namespace: a.namespace,
        },
      };
    default:
      return {
        verb: `delete cluster secret (${a.reason})`,
        fields: { secret: a.name, namespace: a.namespace, reason: a.reason },
      };
  }
}

const DELETE_DONE: Record<string, string> = {
  namespace_gone: 'deregistered cluster (source namespace gone)',
  stale_uid:
    'deregistered cluster (source namespace was recreated under the same name)',
  demoted_ttl: 'deleted demoted registration past its TTL',
};

/**
 * One registrar pass: a constant number of reads (LIST managed namespaces, one LIST of Secrets
 * across namespaces; GETs only for namespaces an owned Secret records that are no longer listed),
 * the pure plan, then its writes — deletes (UID-preconditioned), updates (resourceVersion
 * preconditioned), creates. A failure in one namespace is logged and reported; the others go on.
 */
export async function runRegistrarPass(
  api: RegistrarApi,
  options: RegistrarOptions,
  deps: RunRegistrarPassDeps,
): Promise<RegistrarPassReport> {
  const { logger, metrics, signal } = deps;
  const clock = deps.now ?? (() => new Date());
  const started = Date.now();
  const startedAt = new Date(started).toISOString();
  const before = api.counter.byVerb();
  const keys = registrarKeys(options.labelPrefix);
  const report: RegistrarPassReport = {
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
    dryRun: options.dryRun,
    aborted: false,
  };
  const finish = () => {
    const after = api.counter.byVerb();
    const byVerb: Record<string, number> = {};
    for (const [verb, n] of Object.entries(after)) {
      const d = n - (before[verb] ?? 0);
      if (d) byVerb[verb] = d;
    }
    report.requestsByVerb = byVerb;
    report.requests = Object.values(byVerb).reduce((a, b) => a + b, 0);
    report.durationMs = Date.now() - started;
    return report;
  };

  // Reads.
  const readStart = Date.now();
  let namespaces: NamespaceObject[];
  let secrets: RegistrarSecret[];
  const cache = deps.cache ?? secretDataCacheFor(api);
  try {
    if (api.listSecretsMetadata && api.getSecret) {
      // Metadata of every Secret; data only for those a pass reads, and only when they changed.
      let listed: { items: RegistrarSecret[]; resourceVersion?: string };
      [namespaces, listed] = await Promise.all([
        api.listNamespaces(`${keys.managedBy}=${options.managedBy}`, signal),
        api.listSecretsMetadata(SOURCE_SECRET_FIELD_SELECTOR, signal),
      ]);
      const done = await completeSecrets(
        api,
        listed.items,
        namespaces,
        options,
        { cache, fieldSelector: SOURCE_SECRET_FIELD_SELECTOR, signal },
      );
      secrets = done.secrets;
      report.fetched = done.fetched;
      report.resourceVersion = listed.resourceVersion;
    } else {
      [namespaces, secrets] = await Promise.all([
        api.listNamespaces(`${keys.managedBy}=${options.managedBy}`, signal),
        api.listSecrets(SOURCE_SECRET_FIELD_SELECTOR, signal),
      ]);
    }
  } catch (e) {
    report.readMs = Date.now() - readStart;
    const message = `could not list namespaces and secrets: ${
      (e as Error).message
    }`;
    logger.error('registrar pass failed; nothing was changed', {
      error: message,
    });
    report.errors.push(message);
    return finish();
  }
  report.readMs = Date.now() - readStart;
  report.managedNamespaces = namespaces.map(n => n.metadata.name);
  const lookups: Record<string, NamespaceLookup> = {};
  let plan: RegistrarPlan | undefined;
  let hiddenChecked = false;
  for (let round = 1; ; round++) {
    const observed: RegistrarObserved = {
      namespaces,
      secrets,
      namespaceLookups: lookups,
      now: clock(),
    };
    const planStart = Date.now();
    plan = planRegistrarPass(observed, options);
    report.planMs += Date.now() - planStart;
    if (signal?.aborted) break;
    if (
      plan.needs.length === 0 &&
      !hiddenChecked &&
      api.listSecretMetadata &&
      plan.actions.some(a => a.type === 'create')
    ) {
      // Before creating: the names the LIST's field selector hides (a Helm release or a token
      // Secret called cluster-<name>) are taken too; seen now, they are not_managed, not a
      // failed CREATE on every pass.
      hiddenChecked = true;
      const lookupStart = Date.now();
      let hidden: RegistrarSecret[] = [];
      try {
        hidden = hiddenTargetSecrets(
          await api.listSecretMetadata(options.targetNamespace, signal),
          secrets,
          options,
        );
      } catch (e) {
        logger.debug(
          'could not list the target namespace; creates go ahead and AlreadyExists decides',
          { namespace: options.targetNamespace, error: (e as Error).message },
        );
      }
      report.readMs += Date.now() - lookupStart;
      if (hidden.length) {
        secrets = [...secrets, ...hidden];
        continue;
      }
    }
    if (
      plan.needs.length === 0 ||
      round >= MAX_LOOKUP_ROUNDS + (hiddenChecked ? 1 : 0)
    )
      break;
    const lookupStart = Date.now();
    await Promise.all(
      plan.needs.map(async name => {
        try {
          lookups[name] = (await api.getNamespace(name, signal)) ?? null;
        } catch (e) {
          lookups[name] = { error: (e as Error).message };
        }
      }),
    );
    report.readMs += Date.now() - lookupStart;
  }
  report.keys = plan.keys.length;
  for (const entry of plan.logs) emit(logger, entry);
  for (const e of plan.errors)
    report.errors.push(`${e.namespace}: ${e.message}`);
  for (const name of plan.needs) {
    report.errors.push(`${name}: its existence could not be established`);
  }
  report.conflicts.push(...plan.conflicts);
  for (const c of plan.conflicts) metrics?.conflict(c.reason);
  if (signal?.aborted) {
    report.aborted = true;
    return finish();
  }

  // The target namespace as it stands, updated as writes land, for the closing audit.
  const target = new Map<string, RegistrarSecret>();
  for (const s of secrets) {
    if (s.metadata.namespace === options.targetNamespace)
      target.set(s.metadata.name, s);
  }

  if (options.dryRun) {
    for (const a of plan.actions) {
      const { verb, fields } = describe(a);
      logger.info(`[dry-run] would ${verb}`, fields);
    }
  } else {
    const ordered = plan.actions
      .map((a, i) => ({ a, i }))
      .sort((x, y) => phase(x.a) - phase(y.a) || x.i - y.i)
      .map(x => x.a);
    for (const p of [0, 1, 2]) {
      const batch = ordered.filter(a => phase(a) === p);
      await forEachLimited(
        batch,
        deps.concurrency ?? 8,
        a => execute(a),
        signal,
      );
    }
    if (signal?.aborted) report.aborted = true;
  }

  async function execute(a: RegistrarAction): Promise<void> {
    report.writes++;
    try {
      switch (a.type) {
        case 'create': {
          const created = await api.createSecret(a.secret, signal);
          target.set(created.metadata.name, created);
          cache.set(created);
          report.created++;
          logger.info('registered cluster', {
            cluster: a.cluster,
            namespace: a.namespace,
            server: a.server,
          });
          return;
        }
        case 'update': {
          const updated = await api.replaceSecret(a.secret, signal);
          target.set(updated.metadata.name, updated);
          cache.set(updated);
          report.updated++;
          if (a.adoption) metrics?.adoption();
          logger.info('updated cluster registration', {
            cluster: a.cluster,
            namespace: a.namespace,
            server: a.server,
          });
          return;
        }
        case 'demote': {
          const demoted = await api.replaceSecret(a.secret, signal);
          target.set(demoted.metadata.name, demoted);
          cache.set(demoted);
          report.demoted++;
          logger.warn(
            'demoted superseded cluster registration; it is no longer visible to Argo CD but has been kept',
            {
              secret: a.secret.metadata.name,
              supersededBy: a.supersededBy,
              namespace: a.namespace,
            },
          );
          return;
        }
        default: {
          await api.deleteSecret(
            options.targetNamespace,
            a.name,
            { uid: a.uid, resourceVersion: a.resourceVersion },
            signal,
          );
          target.delete(a.name);
          cache.delete(options.targetNamespace, a.name);
          report.deleted++;
          logger.info(DELETE_DONE[a.reason], {
            secret: a.name,
            namespace: a.namespace,
          });
        }
      }
    } catch (e) {
      onFailure(a, e);
    }
  }

  function onFailure(a: RegistrarAction, e: unknown) {
    const message = (e as Error).message;
    if (a.type === 'create' && isAlreadyExists(e)) {
      // Written between our read and our create: incumbency settles it next pass.
      const conflict: RegistrarConflict = {
        reason: 'create_race',
        namespace: a.namespace,
        cluster: a.cluster,
        message: `cluster secret ${a.secret.metadata.name} was created concurrently; retrying next pass`,
      };
      report.conflicts.push(conflict);
      metrics?.conflict('create_race');
      logger.error('refused to register cluster', {
        cluster: a.cluster,
        namespace: a.namespace,
        conflict: 'create_race',
        reason: conflict.message,
      });
      return;
    }
    if (a.type === 'delete' && isNotFound(e)) {
      target.delete(a.name);
      return;
    }
    if (a.type === 'delete' && isConflict(e)) {
      // Another incarnation now: the proof was about the old one. Decide again next pass.
      logger.info(
        'cluster secret changed identity before deletion; leaving it',
        {
          secret: a.name,
          namespace: a.namespace,
        },
      );
      return;
    }
    const { verb, fields } = describe(a);
    const hint = isConflict(e)
      ? ' (it changed since it was read; retried next pass)'
      : '';
    logger.error(`failed to ${verb}${hint}`, { ...fields, error: message });
    report.errors.push(`${a.namespace}: ${verb}: ${message}`);
  }

  // Audit: gauges from the owned Secrets as they now stand.
  const owned = [...target.values()]
    .map(withData)
    .filter(s => isOwned(s, options));
  const audit = auditRegistrations(owned, options, clock());
  metrics?.registrations(audit.registrations);
  metrics?.unrouted(audit.unrouted.length);
  for (const name of audit.unrouted) {
    logger.warn(
      'owned cluster secret records no source namespace; it can never be collected',
      {
        secret: name,
        label: keys.sourceNamespace,
        fix: 'restore the label, or delete the secret if the cluster is gone',
      },
    );
  }

  finish();
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
    dryRun: report.dryRun,
  };
  if (report.errors.length) {
    logger.error('registrar pass completed with errors', {
      ...summary,
      error: report.errors.join('; '),
    });
  } else {
    logger.debug('registrar pass completed', summary);
  }
  return report;
}

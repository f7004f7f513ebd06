import type { ObjectMeta } from '@infrared-clusters/plugin-infrared-common';

/**
 * A Namespace as the registrar reads it.
 *
 * @public
 */
export interface NamespaceObject {
  metadata: Pick<
    ObjectMeta,
    | 'name'
    | 'uid'
    | 'labels'
    | 'annotations'
    | 'creationTimestamp'
    | 'deletionTimestamp'
    | 'resourceVersion'
  >;
}

/**
 * A Secret as read back (base64 `data`), with every metadata field an update must send back
 * unchanged (a PUT replaces the object: a dropped finalizer or owner reference would be lost).
 *
 * @public
 */
export interface RegistrarSecret {
  apiVersion?: 'v1';
  kind?: 'Secret';
  metadata: ObjectMeta & { finalizers?: string[] };
  type?: string;
  data?: Record<string, string>;
  stringData?: Record<string, string>;
  immutable?: boolean;
}

/**
 * A GET of a namespace: the object, null when NotFound, or the error that made it unknowable.
 *
 * @public
 */
export type NamespaceLookup = NamespaceObject | null | { error: string };

/**
 * What one pass read; the planner decides from this alone.
 *
 * @public
 */
export interface RegistrarObserved {
  /** `LIST namespaces -l <prefix>managed-by=<value>`. */
  namespaces: NamespaceObject[];
  /**
   * Secrets of the managed namespaces (the kubeconfig sources) and of the target namespace (the
   * Argo CD Secrets, owned or not). Secrets of other namespaces are ignored.
   */
  secrets: RegistrarSecret[];
  /** Answers to the namespaces a previous plan listed in `needs`. */
  namespaceLookups?: Record<string, NamespaceLookup>;
  /**
   * Only these reconcile keys (source namespaces) are planned: a pass scoped to what changed. The
   * target namespace is still the whole of it (conflicts and the audit need it). Default: all.
   */
  onlyKeys?: string[];
  now: Date;
}

/** @public */
export const CONFLICT_REASONS = [
  'not_managed',
  'orphan_cluster_mismatch',
  'incumbent',
  'contested_name',
  'create_race',
  'server_collision',
] as const;
/** @public */
export type ConflictReason = (typeof CONFLICT_REASONS)[number];

/** @public */
export const REGISTRATION_STATES = ['active', 'demoted'] as const;
/** @public */
export type RegistrationState = (typeof REGISTRATION_STATES)[number];

/** @public */
export const CREDENTIAL_EXPIRY_BUCKETS = [
  'expired',
  'lt_24h',
  'lt_7d',
  'lt_30d',
  'ok',
  'token',
  'exec',
  'unreadable',
  'absent',
] as const;
/** @public */
export type CredentialExpiry = (typeof CREDENTIAL_EXPIRY_BUCKETS)[number];

/** @public */
export type DeleteReason = 'namespace_gone' | 'stale_uid' | 'demoted_ttl';

/** @public */
export type RegistrarAction =
  | {
      type: 'create';
      /** The source namespace (the reconcile key) the action belongs to. */
      namespace: string;
      cluster: string;
      server: string;
      secret: RegistrarSecret;
    }
  | {
      type: 'update';
      namespace: string;
      cluster: string;
      server: string;
      /** The whole object to PUT; its resourceVersion is the precondition. */
      secret: RegistrarSecret;
      /** The Secret recorded no source namespace and is adopted by this one. */
      adoption: boolean;
    }
  | {
      type: 'demote';
      namespace: string;
      secret: RegistrarSecret;
      supersededBy: string;
    }
  | {
      type: 'delete';
      namespace: string;
      name: string;
      /** Precondition: only this incarnation is deleted. */
      uid?: string;
      /** Precondition as well (demoted-TTL deletes). */
      resourceVersion?: string;
      reason: DeleteReason;
    };

/** @public */
export interface RegistrarConflict {
  reason: ConflictReason;
  namespace: string;
  cluster: string;
  message: string;
}

/** @public */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
/** @public */
export type LogFields = Record<string, string | number | boolean>;

/** @public */
export interface RegistrarLog {
  level: LogLevel;
  message: string;
  fields: LogFields;
}

/** @public */
export interface RegistrationSeries {
  state: RegistrationState;
  credentialExpiry: CredentialExpiry;
  value: number;
}

/** @public */
export interface RegistrarMetricsSnapshot {
  /** Refusals this pass, every reason present. */
  conflicts: Record<ConflictReason, number>;
  /** Adoptions this pass would make. */
  adoptions: number;
  /** Every state × credential_expiry series, zeros included. */
  registrations: RegistrationSeries[];
  /** Owned Secrets recording no source namespace. */
  unroutedSecrets: number;
}

/**
 * Why a pass did not register a managed namespace's child although nothing failed: the planner's
 * own verdicts, not a refused write (those are conflicts).
 *
 * @public
 */
export const SKIP_REASONS = [
  'no_cluster_label',
  'invalid_cluster_name',
  'no_kubeconfig',
  'unusable_kubeconfig',
  'not_managed',
  'terminating',
] as const;
/** @public */
export type SkipReason = (typeof SKIP_REASONS)[number];

/**
 * One reconcile key as the planner evaluated it: the child's cluster name when it knows one, and
 * why it skipped it (no Secret written or kept up to date) when it did.
 *
 * @public
 */
export interface RegistrarPlanChild {
  namespace: string;
  cluster?: string;
  skip?: { reason: SkipReason; message: string };
}

/**
 * What the last pass did with one child (a reconcile key: its source namespace):
 * `registered` (its Argo CD Secret created), `updated` (rewritten, adopted or superseded by a
 * rename), `unchanged` (already up to date), `skipped` (not registered: `reason` says why, a
 * conflict's or a skip's), `failed` (a read or write failed: retried next pass), `removed` (its
 * Secret deleted: the namespace is gone or another incarnation).
 *
 * @public
 */
export const CHILD_OUTCOMES = [
  'registered',
  'updated',
  'unchanged',
  'skipped',
  'failed',
  'removed',
] as const;
/** @public */
export type ChildOutcomeKind = (typeof CHILD_OUTCOMES)[number];

/** @public */
export interface RegistrarChildOutcome {
  /** The source namespace (the reconcile key). */
  namespace: string;
  /** The Argo CD cluster name, when the pass knew it. */
  cluster?: string;
  outcome: ChildOutcomeKind;
  /** `skipped`: a ConflictReason or SkipReason; `removed`: a DeleteReason. */
  reason?: string;
  /** One sentence; never a credential. */
  message?: string;
}

/** @public */
export interface RegistrarPlan {
  /** Sorted reconcile keys: managed namespaces ∪ source namespaces of owned Secrets. */
  keys: string[];
  /** In the order they were decided; the executor runs deletes, then updates, then creates. */
  actions: RegistrarAction[];
  conflicts: RegistrarConflict[];
  logs: RegistrarLog[];
  /** Keys that could not be evaluated (a read failed); the pass reports them as errors. */
  errors: Array<{ namespace: string; message: string }>;
  /**
   * Namespaces whose existence the plan depends on but the observation does not say: GET them,
   * put the answers in `namespaceLookups` and plan again. Non-empty means the plan is incomplete.
   */
  needs: string[];
  /** The metrics this pass would publish (registrations as they stand after `actions`). */
  metrics: RegistrarMetricsSnapshot;
  /** Every key evaluated, in key order (not the ones still needing a namespace lookup). */
  children?: RegistrarPlanChild[];
}

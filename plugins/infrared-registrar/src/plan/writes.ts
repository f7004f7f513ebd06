import {
  isAlreadyExists,
  isConflict,
  isNotFound,
} from '@infrared-clusters/infrared-kube';
import type {
  LogFields,
  RegistrarAction,
  RegistrarConflict,
  RegistrarLog,
} from '../types';

/** Deletes first (they free names), then updates and demotions, then creates. */
const PHASE: Record<RegistrarAction['type'], number> = {
  delete: 0,
  update: 1,
  demote: 1,
  create: 2,
};

/** The plan's actions in the batches the executor sends one after the other, each in plan order. */
export function writeBatches(actions: RegistrarAction[]): RegistrarAction[][] {
  return [0, 1, 2].map(p => actions.filter(a => PHASE[a.type] === p));
}

/** The fields that name a registration a create or an update writes. */
const registrationFields = (a: {
  cluster: string;
  namespace: string;
  server: string;
}) => ({
  cluster: a.cluster,
  namespace: a.namespace,
  server: a.server,
});

/** The fields that name a demotion. */
const demotionFields = (a: Extract<RegistrarAction, { type: 'demote' }>) => ({
  secret: a.secret.metadata.name,
  supersededBy: a.supersededBy,
  namespace: a.namespace,
});

/** What an action does, in words and fields (dry-run lines and failures). */
export function describeAction(a: RegistrarAction): {
  verb: string;
  fields: LogFields;
} {
  switch (a.type) {
    case 'create':
      return {
        verb: 'create cluster secret',
        fields: registrationFields(a),
      };
    case 'update':
      return {
        verb: a.adoption
          ? 'adopt and update cluster secret'
          : 'update cluster secret',
        fields: registrationFields(a),
      };
    case 'demote':
      return {
        verb: 'demote superseded cluster secret',
        fields: demotionFields(a),
      };
    default:
      return {
        verb: `delete cluster secret (${a.reason})`,
        fields: { secret: a.name, namespace: a.namespace, reason: a.reason },
      };
  }
}

/** The line a dry run logs instead of the write. */
export function dryRunLog(a: RegistrarAction): RegistrarLog {
  const { verb, fields } = describeAction(a);
  return { level: 'info', message: `[dry-run] would ${verb}`, fields };
}

const DELETE_DONE: Record<string, string> = {
  namespace_gone: 'deregistered cluster (source namespace gone)',
  stale_uid:
    'deregistered cluster (source namespace was recreated under the same name)',
  demoted_ttl: 'deleted demoted registration past its TTL',
};

/** The line a write that landed logs. */
export function writtenLog(a: RegistrarAction): RegistrarLog {
  switch (a.type) {
    case 'create':
    case 'update':
      return {
        level: 'info',
        message:
          a.type === 'create'
            ? 'registered cluster'
            : 'updated cluster registration',
        fields: registrationFields(a),
      };
    case 'demote':
      return {
        level: 'warn',
        message:
          'demoted superseded cluster registration; it is no longer visible to Argo CD but has been kept',
        fields: demotionFields(a),
      };
    default:
      return {
        level: 'info',
        message: DELETE_DONE[a.reason],
        fields: { secret: a.name, namespace: a.namespace },
      };
  }
}

/**
 * What a refused write means. Every one is retried by the next pass, which reads again and plans
 * again (the requeue); what differs is how it is reported.
 */
export interface WriteFailure {
  /** Lost a race for a name: a refusal of the pass, not an error. */
  conflict?: RegistrarConflict;
  log?: RegistrarLog;
  /** A failure of the pass (`<namespace>: <verb>: <message>`). */
  error?: string;
  /** The object is gone (what a delete wanted): drop it from the target namespace. */
  gone?: boolean;
}

/** The outcome of a write the API server refused with `e`. */
export function writeFailure(a: RegistrarAction, e: unknown): WriteFailure {
  const message = (e as Error).message;
  if (a.type === 'create' && isAlreadyExists(e)) {
    // Written between our read and our create: incumbency settles it next pass.
    const conflict: RegistrarConflict = {
      reason: 'create_race',
      namespace: a.namespace,
      cluster: a.cluster,
      message: `cluster secret ${a.secret.metadata.name} was created concurrently; retrying next pass`,
    };
    return {
      conflict,
      log: {
        level: 'error',
        message: 'refused to register cluster',
        fields: {
          cluster: a.cluster,
          namespace: a.namespace,
          conflict: 'create_race',
          reason: conflict.message,
        },
      },
    };
  }
  if (a.type === 'delete' && isNotFound(e)) return { gone: true };
  if (a.type === 'delete' && isConflict(e)) {
    // Another incarnation now: the proof was about the old one. Decide again next pass.
    return {
      log: {
        level: 'info',
        message: 'cluster secret changed identity before deletion; leaving it',
        fields: { secret: a.name, namespace: a.namespace },
      },
    };
  }
  const { verb, fields } = describeAction(a);
  const hint = isConflict(e)
    ? ' (it changed since it was read; retried next pass)'
    : '';
  return {
    log: {
      level: 'error',
      message: `failed to ${verb}${hint}`,
      fields: { ...fields, error: message },
    },
    error: `${a.namespace}: ${verb}: ${message}`,
  };
}

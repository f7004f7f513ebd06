import { KubeApiError } from '@infrared-clusters/infrared-kube';
import type { RegistrarAction } from '../types';
import { argo } from '../__testUtils__/fixtures';
import {
  describeAction,
  dryRunLog,
  writeBatches,
  writeFailure,
  writtenLog,
} from './writes';

const SERVER = 'https://10.0.0.1:6443';
const create: RegistrarAction = {
  type: 'create',
  namespace: 'ns-a',
  cluster: 'a',
  server: SERVER,
  secret: argo('cluster-a'),
};
const update: RegistrarAction = {
  type: 'update',
  namespace: 'ns-b',
  cluster: 'b',
  server: SERVER,
  secret: argo('cluster-b'),
  adoption: false,
};
const adopt: RegistrarAction = { ...update, adoption: true };
const demote: RegistrarAction = {
  type: 'demote',
  namespace: 'ns-c',
  secret: argo('cluster-old'),
  supersededBy: 'cluster-c',
};
const del = (
  reason: 'namespace_gone' | 'stale_uid' | 'demoted_ttl',
): RegistrarAction => ({
  type: 'delete',
  namespace: 'ns-d',
  name: `cluster-${reason}`,
  uid: 'uid-1',
  reason,
});

const conflict = new KubeApiError(
  409,
  'Conflict',
  'the object has been modified',
);
const exists = new KubeApiError(409, 'AlreadyExists', 'already exists');
const notFound = new KubeApiError(404, 'NotFound', 'not found');
const forbidden = new KubeApiError(403, 'Forbidden', 'forbidden');

describe('writeBatches', () => {
  it('sends deletes, then updates and demotions, then creates, each batch in plan order', () => {
    const gone = del('namespace_gone');
    const stale = del('stale_uid');
    expect(writeBatches([create, update, gone, demote, stale, adopt])).toEqual([
      [gone, stale],
      [update, demote, adopt],
      [create],
    ]);
  });

  it('keeps empty batches empty', () => {
    expect(writeBatches([])).toEqual([[], [], []]);
  });
});

describe('describeAction, dryRunLog and writtenLog', () => {
  it.each<[RegistrarAction, string, string, string]>([
    [create, 'create cluster secret', 'info', 'registered cluster'],
    [update, 'update cluster secret', 'info', 'updated cluster registration'],
    [
      adopt,
      'adopt and update cluster secret',
      'info',
      'updated cluster registration',
    ],
    [
      demote,
      'demote superseded cluster secret',
      'warn',
      'demoted superseded cluster registration; it is no longer visible to Argo CD but has been kept',
    ],
    [
      del('namespace_gone'),
      'delete cluster secret (namespace_gone)',
      'info',
      'deregistered cluster (source namespace gone)',
    ],
    [
      del('stale_uid'),
      'delete cluster secret (stale_uid)',
      'info',
      'deregistered cluster (source namespace was recreated under the same name)',
    ],
    [
      del('demoted_ttl'),
      'delete cluster secret (demoted_ttl)',
      'info',
      'deleted demoted registration past its TTL',
    ],
  ])('%j: %s', (action, verb, level, written) => {
    expect(describeAction(action).verb).toBe(verb);
    expect(dryRunLog(action)).toEqual({
      level: 'info',
      message: `[dry-run] would ${verb}`,
      fields: describeAction(action).fields,
    });
    expect(writtenLog(action)).toMatchObject({ level, message: written });
    // Every line names the source namespace it belongs to.
    expect(writtenLog(action).fields.namespace).toBe(action.namespace);
  });
});

describe('writeFailure', () => {
  it.each<[string, RegistrarAction, unknown, object]>([
    [
      'a create that lost the name is a create_race refusal, not an error',
      create,
      exists,
      {
        conflict: {
          reason: 'create_race',
          namespace: 'ns-a',
          cluster: 'a',
          message:
            'cluster secret cluster-a was created concurrently; retrying next pass',
        },
        log: { level: 'error', message: 'refused to register cluster' },
      },
    ],
    [
      'a delete of what is already gone is done',
      del('namespace_gone'),
      notFound,
      { gone: true },
    ],
    [
      'a delete of another incarnation leaves it, quietly',
      del('stale_uid'),
      conflict,
      {
        log: {
          level: 'info',
          message:
            'cluster secret changed identity before deletion; leaving it',
          fields: { secret: 'cluster-stale_uid', namespace: 'ns-d' },
        },
      },
    ],
    [
      'an update that lost the race is an error retried next pass',
      update,
      conflict,
      {
        log: {
          level: 'error',
          message:
            'failed to update cluster secret (it changed since it was read; retried next pass)',
        },
        error: 'ns-b: update cluster secret: the object has been modified',
      },
    ],
    [
      'a forbidden demotion is an error with no hint',
      demote,
      forbidden,
      {
        log: {
          level: 'error',
          message: 'failed to demote superseded cluster secret',
          fields: {
            secret: 'cluster-old',
            supersededBy: 'cluster-c',
            namespace: 'ns-c',
            error: 'forbidden',
          },
        },
        error: 'ns-c: demote superseded cluster secret: forbidden',
      },
    ],
    [
      'a create refused for another reason is an error',
      create,
      forbidden,
      { error: 'ns-a: create cluster secret: forbidden' },
    ],
    [
      'a delete whose namespace lookup failed the network is an error',
      del('namespace_gone'),
      new KubeApiError(0, 'ECONNREFUSED', 'DELETE: ECONNREFUSED'),
      {
        error:
          'ns-d: delete cluster secret (namespace_gone): DELETE: ECONNREFUSED',
      },
    ],
  ])('%s', (_, action, error, expected) => {
    const failure = writeFailure(action, error);
    expect(failure).toMatchObject(expected);
    // Nothing is both a refusal and an error.
    expect(!!failure.conflict && !!failure.error).toBe(false);
  });
});

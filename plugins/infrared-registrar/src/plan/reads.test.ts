import type { RegistrarAction } from '../types';
import { argo, options } from '../__testUtils__/fixtures';
import {
  hiddenTargetSecrets,
  MAX_LOOKUP_ROUNDS,
  nextRead,
  type ReadProgress,
} from './reads';

const create: RegistrarAction = {
  type: 'create',
  namespace: 'a',
  cluster: 'a',
  server: 'https://10.0.0.1:6443',
  secret: argo('cluster-a'),
};
const update: RegistrarAction = {
  ...create,
  type: 'update',
  adoption: false,
};

const progress = (p: Partial<ReadProgress> = {}): ReadProgress => ({
  round: 1,
  targetListed: false,
  canListTarget: true,
  ...p,
});

describe('nextRead', () => {
  it.each<
    [
      string,
      string[],
      RegistrarAction[],
      ReadProgress,
      ReturnType<typeof nextRead>,
    ]
  >([
    [
      'final: nothing needed, nothing to create',
      [],
      [update],
      progress(),
      undefined,
    ],
    [
      "the target namespace's names before a create",
      [],
      [update, create],
      progress(),
      { type: 'listTargetNames', namespace: 'argocd' },
    ],
    [
      'the target names only once',
      [],
      [create],
      progress({ round: 2, targetListed: true }),
      undefined,
    ],
    [
      'no target names from an API that cannot list them',
      [],
      [create],
      progress({ canListTarget: false }),
      undefined,
    ],
    [
      'the namespaces the plan needs first, the target names after',
      ['gone-a', 'gone-b'],
      [create],
      progress(),
      { type: 'getNamespaces', names: ['gone-a', 'gone-b'] },
    ],
    [
      'needs in the last lookup round are decided without',
      ['gone-a'],
      [],
      progress({ round: MAX_LOOKUP_ROUNDS }),
      undefined,
    ],
    [
      'one more lookup round when the target names took one',
      ['gone-a'],
      [],
      progress({ round: MAX_LOOKUP_ROUNDS, targetListed: true }),
      { type: 'getNamespaces', names: ['gone-a'] },
    ],
    [
      'and none after it',
      ['gone-a'],
      [],
      progress({ round: MAX_LOOKUP_ROUNDS + 1, targetListed: true }),
      undefined,
    ],
  ])('%s', (_, needs, actions, at, expected) => {
    expect(nextRead({ needs, actions }, at, options())).toEqual(expected);
  });
});

describe('hiddenTargetSecrets', () => {
  it('keeps the names the pass did not see, metadata only, without the ownership label', () => {
    const seen = [argo('cluster-a'), argo('cluster-b', { namespace: 'other' })];
    const listed = [
      { metadata: { name: 'cluster-a', namespace: 'argocd' } },
      {
        metadata: {
          name: 'cluster-b',
          labels: {
            'argocd-cluster-registrar/managed-by': 'cluster-registrar',
            owner: 'helm',
          },
        },
        type: 'helm.sh/release.v1',
      },
    ];
    expect(hiddenTargetSecrets(listed, seen, options())).toEqual([
      {
        metadata: {
          name: 'cluster-b',
          namespace: 'argocd',
          labels: { owner: 'helm' },
        },
        type: 'helm.sh/release.v1',
        data: {},
      },
    ]);
  });

  it('calls a Secret listed without its type hidden', () => {
    const [hidden] = hiddenTargetSecrets(
      [{ metadata: { name: 'cluster-x' } }],
      [],
      options(),
    );
    expect(hidden.type).toBe('hidden');
  });
});

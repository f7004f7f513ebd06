import { childOutcomes, type RegistrarWriteResult } from './execute/outcomes';
import { planRegistrarPass } from './plan';
import type { RegistrarObserved, RegistrarPlan } from './types';
import {
  argo,
  k3kSecret,
  kubeconfig,
  NOW,
  ns,
  options,
  ownedLabels,
  source,
} from './__testUtils__/fixtures';
import { applyPlan, planWithLookups } from './__testUtils__/simulate';

const OPTS = options();
const written = (plan: RegistrarPlan): RegistrarWriteResult[] =>
  plan.actions.map(action => ({ action, status: 'written' }));
const world = (
  namespaces: RegistrarObserved['namespaces'],
  secrets: RegistrarObserved['secrets'],
): RegistrarObserved => ({ namespaces, secrets, now: NOW });

/**
 * Issue 23.1: the Clusters page shows what the last pass did with each child. The outcome of each
 * reconcile key, from the planner's verdicts and what became of the writes.
 */
describe('childOutcomes', () => {
  it('says registered, then unchanged on the next pass, then updated when the server moved', () => {
    const first = world(
      [ns('k3k-sandbox', { cluster: 'sandbox' })],
      [k3kSecret('k3k-sandbox', 'sandbox')],
    );
    const plan = planRegistrarPass(first, OPTS);
    expect(childOutcomes(plan, written(plan))).toEqual([
      {
        namespace: 'k3k-sandbox',
        cluster: 'sandbox',
        outcome: 'registered',
        message:
          'Argo CD Secret cluster-sandbox created for https://10.0.0.1:6443',
      },
    ]);

    const second = applyPlan(first, plan);
    const again = planRegistrarPass(second, OPTS);
    expect(childOutcomes(again, written(again))).toEqual([
      { namespace: 'k3k-sandbox', cluster: 'sandbox', outcome: 'unchanged' },
    ]);

    const moved = {
      ...second,
      secrets: second.secrets.map(s =>
        s.metadata.namespace === 'k3k-sandbox'
          ? k3kSecret(
              'k3k-sandbox',
              'sandbox',
              kubeconfig({ server: 'https://10.0.0.2:6443' }),
            )
          : s,
      ),
    };
    const update = planRegistrarPass(moved, OPTS);
    expect(childOutcomes(update, written(update))).toEqual([
      {
        namespace: 'k3k-sandbox',
        cluster: 'sandbox',
        outcome: 'updated',
        message:
          'Argo CD Secret cluster-sandbox updated for https://10.0.0.2:6443',
      },
    ]);
  });

  it('says skipped, and why, for a child without a usable kubeconfig or with a contested name', () => {
    const plan = planRegistrarPass(
      world(
        [
          ns('k3k-empty', { cluster: 'empty' }),
          ns('k3k-broken', { cluster: 'broken' }),
          ns('k3k-nolabel', { cluster: null }),
          ns('k3k-old', { cluster: 'twin', created: '2026-01-01T00:00:00Z' }),
          ns('k3k-young', { cluster: 'twin', created: '2026-02-01T00:00:00Z' }),
        ],
        [
          source('k3k-broken', 'k3k-broken-kubeconfig', {
            'kubeconfig.yaml': 'not: a kubeconfig',
          }),
          k3kSecret('k3k-old', 'twin'),
          k3kSecret(
            'k3k-young',
            'twin',
            kubeconfig({ server: 'https://10.0.0.9:6443' }),
          ),
        ],
      ),
      OPTS,
    );
    const outcomes = childOutcomes(plan, written(plan));
    const by = Object.fromEntries(outcomes.map(o => [o.namespace, o]));
    expect(by['k3k-empty']).toMatchObject({
      cluster: 'empty',
      outcome: 'skipped',
      reason: 'no_kubeconfig',
      message: expect.stringContaining('no kubeconfig Secret yet'),
    });
    expect(by['k3k-broken']).toMatchObject({
      cluster: 'broken',
      outcome: 'skipped',
      reason: 'unusable_kubeconfig',
    });
    expect(by['k3k-nolabel']).toMatchObject({
      outcome: 'skipped',
      reason: 'no_cluster_label',
    });
    expect(by['k3k-old']).toMatchObject({ outcome: 'registered' });
    expect(by['k3k-young']).toMatchObject({
      cluster: 'twin',
      outcome: 'skipped',
      reason: 'incumbent',
      message: expect.stringContaining('registered from namespace k3k-old'),
    });
    // nothing of a kubeconfig in what the page is told
    expect(JSON.stringify(outcomes)).not.toMatch(/BEGIN|token|PEM/);
  });

  it('says failed or skipped when the write was refused, and removed when the namespace is gone', () => {
    const first = world(
      [
        ns('k3k-a', { cluster: 'a' }),
        ns('k3k-b', { cluster: 'b' }),
        ns('k3k-c', { cluster: 'c' }),
      ],
      [
        k3kSecret('k3k-a', 'a'),
        k3kSecret(
          'k3k-b',
          'b',
          kubeconfig({ server: 'https://10.0.0.2:6443' }),
        ),
        k3kSecret(
          'k3k-c',
          'c',
          kubeconfig({ server: 'https://10.0.0.3:6443' }),
        ),
      ],
    );
    const plan = planRegistrarPass(first, OPTS);
    const [a, b] = plan.actions;
    const results: RegistrarWriteResult[] = [
      {
        action: a,
        status: 'failed',
        error: 'k3k-a: create cluster secret: forbidden',
      },
      {
        action: b,
        status: 'conflict',
        conflict: {
          reason: 'create_race',
          namespace: 'k3k-b',
          cluster: 'b',
          message:
            'cluster secret cluster-b was created concurrently; retrying next pass',
        },
      },
      // c's create was never sent: the pass stopped
    ];
    expect(childOutcomes(plan, results)).toEqual([
      {
        namespace: 'k3k-a',
        cluster: 'a',
        outcome: 'failed',
        message: 'k3k-a: create cluster secret: forbidden',
      },
      {
        namespace: 'k3k-b',
        cluster: 'b',
        outcome: 'skipped',
        reason: 'create_race',
        message:
          'cluster secret cluster-b was created concurrently; retrying next pass',
      },
      {
        namespace: 'k3k-c',
        cluster: 'c',
        outcome: 'failed',
        message:
          'the pass stopped before it could create Argo CD Secret cluster-c; the next pass does',
      },
    ]);

    // k3k-gone was deleted: its registration goes
    const gone = planWithLookups(
      world(
        [],
        [argo('cluster-gone', { labels: ownedLabels('gone', 'k3k-gone') })],
      ),
      OPTS,
    );
    expect(childOutcomes(gone, written(gone))).toEqual([
      {
        namespace: 'k3k-gone',
        outcome: 'removed',
        reason: 'namespace_gone',
        message: 'Argo CD Secret cluster-gone deleted (namespace_gone)',
      },
    ]);
  });
});

import type { ClusterResource } from '@infrared-clusters/plugin-infrared-common';
import type { GitopsPublishResult } from '../../gitops';
import {
  clusterResource,
  storedKubeconfigSecret,
} from '../__testUtils__/fixtures';
import { resolveConnection } from './connection';
import { registrationChange } from '../observe';
import { planCluster } from './cluster';
import { REGISTERED_FILES_ANNOTATION, settleRegistered } from './registered';
import type { ClusterOutcome, ObservedCluster } from './types';

const NOW = '2026-02-01T10:00:00.000Z';
const EARLIER = '2026-01-15T08:00:00.000Z';
const REPO = { repoUrl: 'file:///tmp/gitops.git', defaultBranch: 'main' };
const MERGED: GitopsPublishResult = {
  url: 'https://github.example/o/r/pull/7',
  commit: 'c0ffee',
  merged: true,
  state: 'merged',
  pullRequest: { number: 7, url: 'https://github.example/o/r/pull/7' },
};

function observe(cluster: ClusterResource): ObservedCluster {
  const kubeconfigSecret = storedKubeconfigSecret(cluster.metadata.name);
  return {
    cluster,
    connection: resolveConnection(cluster, kubeconfigSecret),
    kubeconfigSecret,
    probe: { ok: true, kubernetesVersion: 'v1.37.2', nodes: 2 },
    registration: registrationChange(
      cluster.metadata.name,
      'infrared-mgmt',
      REPO,
    ),
    now: NOW,
  };
}

const registeredTrue = (generation: number) =>
  clusterResource('edge', {
    metadata: { generation: generation + 1 },
    status: {
      conditions: [
        {
          type: 'Registered',
          status: 'True',
          reason: 'Registered',
          message: 'registered',
          lastTransitionTime: EARLIER,
          observedGeneration: generation,
        },
      ],
    },
  });

/** Runs the planner, then settles with an outcome built from its plan. */
function settle(
  cluster: ClusterResource,
  outcome: (plan: ReturnType<typeof planCluster>) => ClusterOutcome,
) {
  const observed = observe(cluster);
  const plan = planCluster(observed);
  return { plan, ...settleRegistered(observed, plan, outcome(plan)) };
}

const registered = (s: { status: { conditions?: any[] } }) =>
  s.status.conditions?.find(c => c.type === 'Registered');

describe('settleRegistered', () => {
  it.each([
    [
      "a refused Argo CD Secret write: Registered False ArgoSecretFailed with the API server's words",
      clusterResource('edge'),
      {
        status: 'False',
        reason: 'ArgoSecretFailed',
        message:
          'the Argo CD cluster Secret could not be written: CREATE secret argocd/cluster-edge: forbidden',
      },
    ],
    [
      'a refused write after an earlier registration: Registered stays True',
      registeredTrue(1),
      { status: 'True', reason: 'Registered', message: 'registered' },
    ],
  ])('%s', (_what, cluster, expected) => {
    const settled = settle(cluster, plan => ({
      refused: {
        action: plan.actions.find(a => a.type === 'createArgoSecret')!,
        message: 'CREATE secret argocd/cluster-edge: forbidden',
      },
    }));
    expect(settled.plan.publish).toBeDefined();
    expect(registered(settled)).toMatchObject(expected);
    expect(settled.annotations).toBeUndefined();
  });

  it.each([
    [
      'merged: Registered True, the path, the branch, the files hash on the Cluster',
      { result: MERGED },
      { status: 'True', reason: 'Registered' },
      true,
    ],
    [
      'open: Registered False PullRequestOpen, no hash yet',
      { result: { ...MERGED, merged: false, state: 'open' as const } },
      { status: 'False', reason: 'PullRequestOpen' },
      false,
    ],
    [
      'closed by a human: Registered False PullRequestClosed',
      { result: { ...MERGED, merged: false, state: 'closed' as const } },
      { status: 'False', reason: 'PullRequestClosed' },
      false,
    ],
    [
      "failed: Registered False PublishFailed with the publisher's words",
      { error: new Error('protected branch') },
      { status: 'False', reason: 'PublishFailed', message: 'protected branch' },
      false,
    ],
  ])('after a publish %s', (_what, published, expected, merged) => {
    const settled = settle(clusterResource('edge'), () => ({ published }));
    expect(registered(settled)).toMatchObject(expected);
    expect(settled.status.gitopsPath).toBe(
      merged
        ? 'registry/clusters/infrared-mgmt/components/cluster-edge.yaml'
        : undefined,
    );
    expect(settled.status.pullRequest?.branch).toBe(
      merged ? 'main' : undefined,
    );
    expect(settled.annotations).toEqual(
      merged
        ? { [REGISTERED_FILES_ANNOTATION]: settled.plan.publish!.filesHash }
        : undefined,
    );
  });

  it('is the planned status when every write went through and nothing was published', () => {
    const settled = settle(registeredTrue(1), () => ({}));
    expect(settled.status).toBe(settled.plan.status);
    expect(settled.annotations).toBeUndefined();
  });
});

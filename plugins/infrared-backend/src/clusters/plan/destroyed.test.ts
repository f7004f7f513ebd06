import {
  ARGOCD_NAMESPACE,
  type ClusterResource,
  type ProvisionStatus,
  type SecretObject,
} from '@infrared-clusters/plugin-infrared-common';
import { controllerReferenceTo } from '../../kube/ownerReference';
import type { ProbeResult } from '@infrared-clusters/infrared-kube';
import {
  clusterResource,
  stored,
  storedKubeconfigSecret,
} from '../__testUtils__/fixtures';
import { resolveConnection } from './connection';
import { desiredArgoSecret, planCluster } from '.';
import { registrationChange } from '../observe';

const NOW = '2026-02-01T10:00:00.000Z';
const EARLIER = '2026-01-15T08:00:00.000Z';
const DEAD: ProbeResult = {
  ok: false,
  reason: 'Unreachable',
  message: 'cannot reach (ECONNREFUSED)',
};
const REPO = { repoUrl: 'file:///tmp/gitops.git', defaultBranch: 'main' };

const job = (action: string, phase: ProvisionStatus['phase'], generation = 3) =>
  ({
    action,
    generation,
    job: `tofu-built-${generation}-${action}`,
    phase,
  } as ProvisionStatus);

/** A built cluster that was Registered, with `provision` as its last Job. */
function built(provision: ProvisionStatus, generation = 3): ClusterResource {
  const cluster = clusterResource('built', {
    metadata: { generation },
    spec: {
      template: { module: 'local/demo-cluster', version: 'v1' },
      provision: { action: provision.action as any },
    },
  });
  cluster.status = {
    provision,
    argoSecret: 'cluster-built',
    conditions: [
      {
        type: 'Registered',
        status: 'True',
        reason: 'Registered',
        message: 'the gitops repo registers the cluster',
        lastTransitionTime: EARLIER,
        observedGeneration: 2,
      },
    ],
  };
  return cluster;
}

function observe(cluster: ClusterResource, argoSecret?: SecretObject) {
  const kubeconfigSecret = storedKubeconfigSecret('built', undefined, {
    ownerReferences: [controllerReferenceTo(cluster)],
  });
  const connection = resolveConnection(cluster, kubeconfigSecret);
  return {
    cluster,
    connection,
    kubeconfigSecret,
    argoSecret,
    probe: DEAD,
    registration: registrationChange('built', 'infrared-mgmt', REPO),
    now: NOW,
  };
}

function ourArgoSecret(cluster: ClusterResource): SecretObject {
  const connection = resolveConnection(
    cluster,
    storedKubeconfigSecret('built'),
  );
  if (connection.kind !== 'kubeconfig') throw new Error('bad fixture');
  return stored(desiredArgoSecret(cluster, connection.argo), {
    namespace: ARGOCD_NAMESPACE,
    uid: 'argo-uid',
  });
}

const registered = (status: { conditions?: any[] }) =>
  status.conditions?.find(c => c.type === 'Registered');

describe('a built cluster after its destroy (issue 23.1)', () => {
  it('deletes our Argo CD Secret, publishes nothing and says Registered False Destroyed', () => {
    const cluster = built(job('destroy', 'Succeeded'));
    const plan = planCluster(observe(cluster, ourArgoSecret(cluster)));
    expect(plan.actions).toEqual([
      expect.objectContaining({
        type: 'deleteArgoSecret',
        namespace: ARGOCD_NAMESPACE,
        name: 'cluster-built',
        uid: 'argo-uid',
      }),
    ]);
    expect(plan.publish).toBeUndefined();
    expect(plan.status.argoSecret).toBeUndefined();
    expect(registered(plan.status)).toEqual({
      type: 'Registered',
      status: 'False',
      reason: 'Destroyed',
      message:
        'the OpenTofu destroy of generation 3 (Job tofu-built-3-destroy) succeeded: the cluster is gone and Argo CD no longer has its cluster Secret. Remove the Cluster, or plan or apply it again',
      lastTransitionTime: NOW,
      observedGeneration: 3,
    });
    expect(
      plan.status.conditions?.find(c => c.type === 'Connected'),
    ).toMatchObject({ status: 'False', reason: 'Unreachable' });
  });

  it('stays Destroyed with nothing to do once the Secret is gone', () => {
    const plan = planCluster(observe(built(job('destroy', 'Succeeded'))));
    expect(plan.actions).toEqual([]);
    expect(registered(plan.status)?.reason).toBe('Destroyed');
  });

  it("never deletes an Argo CD Secret that isn't Infrared's", () => {
    const cluster = built(job('destroy', 'Succeeded'));
    const foreign = stored(
      {
        apiVersion: 'v1',
        kind: 'Secret',
        type: 'Opaque',
        metadata: { name: 'cluster-built', namespace: ARGOCD_NAMESPACE },
      },
      { uid: 'foreign-uid' },
    );
    const plan = planCluster(observe(cluster, foreign));
    expect(plan.actions).toEqual([]);
  });

  it.each([
    ['a destroy that still runs', job('destroy', 'Running')],
    ['a destroy that failed', job('destroy', 'Failed')],
  ])('keeps Registered True and the Secret during %s', (_, provision) => {
    const cluster = built(provision);
    const plan = planCluster(observe(cluster, ourArgoSecret(cluster)));
    expect(plan.actions).toEqual([]);
    expect(registered(plan.status)).toMatchObject({
      status: 'True',
      reason: 'Registered',
    });
  });

  it.each([
    ['an apply', job('apply', 'Running', 4)],
    ['a plan', job('plan', 'Succeeded', 4)],
  ])(
    'registers again as usual once %s of a new generation is the last Job',
    (_, provision) => {
      const cluster = built(provision, 4);
      cluster.status!.conditions = [
        {
          type: 'Registered',
          status: 'False',
          reason: 'Destroyed',
          message: 'destroyed',
          lastTransitionTime: EARLIER,
          observedGeneration: 3,
        },
      ];
      const plan = planCluster(observe(cluster));
      expect(registered(plan.status)).toMatchObject({
        status: 'False',
        reason: 'WaitingForConnection',
      });
    },
  );
});

/*
 * Clusters as older writers stored them (issue 22.3): what the provisioning planner and the API's
 * view read from each. Seed 000 and the chart's first version (0.1.0) wrote
 * `provision.credentialsSecretRef` ({name, key}; only the name was ever read) for a Secret in
 * `infrared`; Infrared's own newer Clusters name a `cloudAccount` instead (reference.md B, where
 * credentialsSecretRef is the deprecated one). These plugins read credentialsSecretRef, and the
 * Job's namespace moved to infrared-tofu (jobAccess.ts copies such a Secret for a Cluster that ran
 * a Job before; executor.integration.test.ts).
 */
import {
  clusterView,
  type ClusterResource,
} from '@infrared-clusters/plugin-infrared-common';
import { indexRuns, planCluster, type ClusterPlan } from './plan';

const context = {
  templates: [],
  kubeconfigOutput: 'kubeconfig',
  now: '2026-12-01T12:00:00Z',
};

/** A Cluster as stored: spec.provision exactly as the old writer left it (no defaults added). */
const stored = (provision: Record<string, unknown>): ClusterResource => ({
  apiVersion: 'infrared.darkshift.io/v1alpha1',
  kind: 'Cluster',
  metadata: { name: 'edge', uid: 'uid-1', generation: 1 },
  spec: {
    type: 'workload',
    template: { module: 'aws/k3s-node', version: 'v0.2.3' },
    provision: provision as ClusterResource['spec']['provision'],
  },
});

/** The Job the plan makes: its name and the Secret its container takes its environment from. */
function madeJob(plan: ClusterPlan) {
  if (!('actions' in plan)) return undefined;
  const create = plan.actions.find(a => a.type === 'createJob');
  if (!create || create.type !== 'createJob') return undefined;
  const container = create.job.spec.template.spec.containers[0];
  return {
    name: create.job.metadata.name,
    envFrom: container.envFrom?.map(e => e.secretRef?.name),
  };
}
function refusal(plan: ClusterPlan) {
  if (!('actions' in plan)) return undefined;
  const w = plan.actions.find(a => a.type === 'writeStatus');
  return w?.type === 'writeStatus'
    ? w.cluster.status?.conditions?.find(c => c.reason === 'InvalidSpec')
        ?.message
    : undefined;
}

describe('a Cluster stored by an older writer', () => {
  it.each<
    [
      string,
      Record<string, unknown>,
      { job?: string; envFrom?: string[]; refused?: unknown; view?: string },
    ]
  >([
    [
      "seed 000's shape: credentialsSecretRef by name, no action (the default, plan)",
      { credentialsSecretRef: { name: 'edge-aws' }, variables: { name: 'e' } },
      { job: 'tofu-edge-1-plan', envFrom: ['edge-aws'], view: 'edge-aws' },
    ],
    [
      "chart 0.1.0's CRD: credentialsSecretRef with the key it allowed (never read)",
      {
        action: 'plan',
        credentialsSecretRef: { name: 'edge-aws', key: 'credentials' },
      },
      { job: 'tofu-edge-1-plan', envFrom: ['edge-aws'], view: 'edge-aws' },
    ],
    [
      'both fields, as a Cluster moved between the schemas: the Secret credentialsSecretRef names',
      {
        action: 'apply',
        cloudAccount: 'aws-prod',
        credentialsSecretRef: { name: 'edge-aws' },
      },
      { job: 'tofu-edge-1-apply', envFrom: ['edge-aws'], view: 'edge-aws' },
    ],
    [
      "Infrared's newer shape, cloudAccount only: refused, naming the field to set (no Job without credentials)",
      { action: 'plan', cloudAccount: 'aws-prod' },
      {
        refused: expect.stringMatching(
          /^not started: provision\.cloudAccount: "aws-prod" names an Infrared CloudAccount, which these plugins do not read: name the Secret holding the cloud credentials in provision\.credentialsSecretRef$/,
        ),
      },
    ],
    [
      'no credentials at all (a local module): the Job, with no Secret',
      { action: 'plan' },
      { job: 'tofu-edge-1-plan' },
    ],
  ])('%s', (_title, provision, expected) => {
    const cluster = stored(provision);
    const plan = planCluster(cluster, indexRuns([], []), context);
    expect({
      job: madeJob(plan),
      refused: refusal(plan),
      // the API's view of the same object
      view: clusterView(cluster).provision?.credentialsSecret,
      action: clusterView(cluster).provision?.action,
    }).toEqual({
      job: expected.job && { name: expected.job, envFrom: expected.envFrom },
      refused: expected.refused,
      view: expected.view,
      action: (provision.action as string | undefined) ?? 'plan',
    });
  });
});

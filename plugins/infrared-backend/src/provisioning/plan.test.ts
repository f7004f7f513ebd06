import type {
  ClusterResource,
  ClusterTemplate,
} from '@infrared-clusters/plugin-infrared-common';
import type {
  ObservedJob,
  ObservedPod,
} from '@infrared-clusters/infrared-kube';
import {
  indexRuns,
  planCluster,
  type ClusterPlan,
  type ProvisioningAction,
  type ProvisioningContext,
} from './plan';

const NOW = '2026-11-30T12:00:00Z';
const context: ProvisioningContext = {
  templates: [],
  kubeconfigOutput: 'kubeconfig',
  now: NOW,
};

function cluster(
  generation = 1,
  provision: ClusterResource['spec']['provision'] = {},
  extra: {
    status?: ClusterResource['status'];
    spec?: Partial<ClusterResource['spec']>;
    uid?: string;
  } = {},
): ClusterResource {
  return {
    apiVersion: 'infrared.darkshift.io/v1alpha1',
    kind: 'Cluster',
    metadata: {
      name: 'edge',
      uid: extra.uid ?? 'uid-1',
      generation,
      resourceVersion: '10',
    },
    spec: {
      type: 'workload',
      template: { module: 'local/demo' },
      provision: { variables: { name: 'edge' }, ...provision },
      ...extra.spec,
    },
    status: extra.status,
  };
}

function job(
  name: string,
  state: 'active' | 'ready' | 'complete' | 'failed',
  uid = 'uid-1',
): ObservedJob {
  const conditions: Array<{
    type: string;
    status: string;
    reason?: string;
    message?: string;
  }> = [];
  if (state === 'complete')
    conditions.push({ type: 'Complete', status: 'True' });
  if (state === 'failed')
    conditions.push({
      type: 'Failed',
      status: 'True',
      reason: 'BackoffLimitExceeded',
      message: 'Job has reached the specified backoff limit',
    });
  return {
    metadata: {
      name,
      namespace: 'infrared',
      labels: {
        'infrared.darkshift.io/cluster': 'edge',
        'infrared.darkshift.io/cluster-uid': uid,
        'infrared.darkshift.io/generation': /^tofu-edge-(\d+)-/.exec(name)![1],
        'infrared.darkshift.io/action': /^tofu-edge-\d+-([a-z]+)/.exec(
          name,
        )![1],
      },
    },
    status: {
      active: state === 'active' || state === 'ready' ? 1 : 0,
      ready: state === 'ready' ? 1 : 0,
      conditions,
    },
  };
}

const pod = (jobName: string, message?: string): ObservedPod => ({
  metadata: {
    name: `${jobName}-abcde`,
    labels: { 'batch.kubernetes.io/job-name': jobName },
  },
  status: message
    ? {
        phase: 'Failed',
        containerStatuses: [
          { name: 'tofu', state: { terminated: { exitCode: 1, message } } },
        ],
      }
    : { phase: 'Succeeded' },
});

const types = (plan: ClusterPlan) =>
  'actions' in plan
    ? plan.actions.map(a => a.type)
    : plan.reads.map(r => `read:${r.type}`);
const created = (plan: ClusterPlan) =>
  'actions' in plan
    ? plan.actions.flatMap((a: ProvisioningAction) =>
        a.type === 'createJob' ? [a.job.metadata.name] : [],
      )
    : [];
const written = (plan: ClusterPlan) => {
  const w =
    'actions' in plan
      ? plan.actions.find(a => a.type === 'writeStatus')
      : undefined;
  return w && w.type === 'writeStatus' ? w.cluster.status : undefined;
};
const runs = (jobs: ObservedJob[] = [], pods: ObservedPod[] = []) =>
  indexRuns(jobs, pods);

/** The status a pass wrote, as the next pass reads it back. */
const after = (c: ClusterResource, plan: ClusterPlan): ClusterResource => ({
  ...c,
  status: written(plan) ?? c.status,
});

describe('planCluster: which Job, once', () => {
  it.each<[string, ClusterResource]>([
    [
      'no template',
      { ...cluster(), spec: { type: 'workload', provision: {} } },
    ],
    [
      'no provision',
      {
        ...cluster(),
        spec: { type: 'workload', template: { module: 'local/demo' } },
      },
    ],
    [
      'the management cluster',
      cluster(1, {}, { spec: { type: 'management' } }),
    ],
    [
      'a Cluster being deleted',
      {
        ...cluster(),
        metadata: { ...cluster().metadata, deletionTimestamp: NOW },
      },
    ],
  ])('%s: nothing', (_what, c) => {
    expect(planCluster(c, runs(), context)).toEqual({ actions: [] });
  });

  it('a new Cluster: the plan Job of generation 1 and status Waiting', () => {
    const plan = planCluster(cluster(), runs(), context);
    expect(created(plan)).toEqual(['tofu-edge-1-plan']);
    expect(written(plan)?.provision).toMatchObject({
      action: 'plan',
      generation: 1,
      job: 'tofu-edge-1-plan',
      phase: 'Waiting',
    });
    expect(written(plan)?.conditions).toEqual([
      expect.objectContaining({
        type: 'Provisioned',
        status: 'Unknown',
        reason: 'JobWaiting',
        lastTransitionTime: NOW,
      }),
    ]);
  });

  it('two passes make the Job once: the second sees it in the LIST, or sees it recorded', () => {
    const c = cluster();
    const first = planCluster(c, runs(), context);
    // the LIST of the second pass has the Job
    expect(
      created(
        planCluster(
          after(c, first),
          runs([job('tofu-edge-1-plan', 'active')]),
          context,
        ),
      ),
    ).toEqual([]);
    // a LIST that missed it (or the Job deleted by hand): status.provision names it, never again
    expect(planCluster(after(c, first), runs(), context)).toEqual({
      actions: [],
    });
  });

  it('a finished Job deleted by its TTL is not made again', () => {
    const status = {
      provision: {
        action: 'plan',
        generation: 1,
        job: 'tofu-edge-1-plan',
        phase: 'Succeeded' as const,
        specHash: 'x',
      },
    };
    expect(planCluster(cluster(1, {}, { status }), runs(), context)).toEqual({
      actions: [],
    });
  });

  it('a new generation with action apply: a new Job', () => {
    const status = {
      provision: {
        action: 'plan',
        generation: 1,
        job: 'tofu-edge-1-plan',
        phase: 'Succeeded' as const,
        specHash: 'old',
      },
    };
    const plan = planCluster(
      cluster(2, { action: 'apply' }, { status }),
      runs([job('tofu-edge-1-plan', 'complete')]),
      context,
    );
    expect(created(plan)).toEqual(['tofu-edge-2-apply']);
  });

  it('a new generation with the same template and provision (the connection changed): no Job', () => {
    const first = cluster(1, { action: 'apply' });
    const plan1 = planCluster(first, runs(), context);
    const recorded = written(plan1)!;
    const second = cluster(
      2,
      { action: 'apply' },
      {
        status: recorded,
        spec: {
          connection: {
            kubeconfigSecretRef: {
              name: 'cluster-edge-kubeconfig',
              key: 'kubeconfig',
            },
          },
        },
      },
    );
    expect(
      created(
        planCluster(
          second,
          runs([job('tofu-edge-1-apply', 'complete')]),
          context,
        ),
      ),
    ).toEqual([]);
  });

  it('waits while another Job of the Cluster runs, and makes it once that one finished', () => {
    const recorded = {
      provision: {
        action: 'plan',
        generation: 1,
        job: 'tofu-edge-1-plan',
        phase: 'Running' as const,
        specHash: 'old',
      },
    };
    const c = cluster(2, { action: 'apply' }, { status: recorded });
    const plan = planCluster(
      c,
      runs([job('tofu-edge-1-plan', 'ready')]),
      context,
    );
    expect(created(plan)).toEqual([]);
    // status.provision still names the Job that exists; the condition says what waits
    expect(written(plan)?.provision).toEqual(recorded.provision);
    expect(written(plan)?.conditions?.[0]).toMatchObject({
      status: 'Unknown',
      reason: 'JobWaiting',
      message:
        'Job tofu-edge-2-apply: waits for Job tofu-edge-1-plan to finish',
    });
    const next = after(c, plan);
    expect(
      created(
        planCluster(next, runs([job('tofu-edge-1-plan', 'complete')]), context),
      ),
    ).toEqual(['tofu-edge-2-apply']);
  });

  it('a finished Job of that name made for an earlier Cluster of the same name (Jobs outlive their Cluster): the new one is made at once under a name of its own', () => {
    const c = cluster();
    const plan = planCluster(
      c,
      runs([job('tofu-edge-1-plan', 'complete', 'old-uid')]),
      context,
    );
    expect(created(plan)).toEqual(['tofu-edge-1-plan-uid1']);
    expect(written(plan)?.provision).toMatchObject({
      job: 'tofu-edge-1-plan-uid1',
      phase: 'Waiting',
    });
    // the next pass reports its own Job, never the earlier Cluster's
    const next = planCluster(
      after(c, plan),
      runs([
        job('tofu-edge-1-plan', 'complete', 'old-uid'),
        job('tofu-edge-1-plan-uid1', 'ready'),
      ]),
      context,
    );
    expect(created(next)).toEqual([]);
    expect(written(next)?.provision).toMatchObject({
      job: 'tofu-edge-1-plan-uid1',
      phase: 'Running',
    });
  });

  it('a Job of an earlier Cluster of the same name still runs (it holds the same state): waits, then makes its own', () => {
    const c = cluster();
    const plan = planCluster(
      c,
      runs([job('tofu-edge-3-apply', 'ready', 'old-uid')]),
      context,
    );
    expect(created(plan)).toEqual([]);
    expect(written(plan)?.provision).toBeUndefined();
    expect(written(plan)?.conditions?.[0]).toMatchObject({
      reason: 'JobWaiting',
      message: expect.stringMatching(
        /waits for Job tofu-edge-3-apply of an earlier Cluster named edge to finish/,
      ),
    });
    expect(
      created(
        planCluster(
          after(c, plan),
          runs([job('tofu-edge-3-apply', 'complete', 'old-uid')]),
          context,
        ),
      ),
    ).toEqual(['tofu-edge-1-plan']);
  });

  it.each([
    [
      { image: 'evil.example/miner:latest' },
      'provision.image: "evil.example/miner:latest" is not in infrared.provisioning.allowedImages',
    ],
    [
      { source: 'git::https://evil.example/steal' },
      'provision.source: "git::https://evil.example/steal" is not in infrared.provisioning.allowedSources',
    ],
  ])(
    'provision %j not allowed: Failed InvalidSpec, no Job (a Cluster written past the API, e.g. by kubectl)',
    (provision, message) => {
      const plan = planCluster(cluster(1, provision), runs(), {
        ...context,
        allow: {
          images: ['ghcr.io/opentofu/opentofu:1.10'],
          sources: ['/repo/examples/tofu/demo'],
        },
      });
      expect(created(plan)).toEqual([]);
      expect(written(plan)?.provision?.message).toContain(message);
      expect(written(plan)?.conditions?.[0]).toMatchObject({
        status: 'False',
        reason: 'InvalidSpec',
      });
    },
  );

  it("credentials naming another Cluster's state Secret (written past the API): Failed InvalidSpec, no Job", () => {
    const plan = planCluster(
      cluster(1, {
        credentialsSecretRef: { name: 'tfstate-default-cluster-prod' },
      }),
      runs(),
      context,
    );
    expect(created(plan)).toEqual([]);
    expect(written(plan)?.provision?.message).toMatch(
      /provision.credentialsSecretRef.name: .*names an OpenTofu state Secret/,
    );
  });

  it('an allowed image and source make the Job', () => {
    const plan = planCluster(
      cluster(1, {
        image: 'ghcr.io/opentofu/opentofu:1.10',
        source: '/repo/examples/tofu/demo',
      }),
      runs(),
      {
        ...context,
        allow: {
          images: ['ghcr.io/opentofu/opentofu:1.10'],
          sources: ['/repo/examples/tofu/demo'],
        },
      },
    );
    expect(created(plan)).toEqual(['tofu-edge-1-plan']);
  });

  it('a variable that is not JSON although it starts like it: Failed InvalidSpec, no Job', () => {
    const plan = planCluster(
      cluster(1, { variables: { zones: '[a' } }),
      runs(),
      context,
    );
    expect(created(plan)).toEqual([]);
    expect(written(plan)?.provision).toMatchObject({
      phase: 'Failed',
      message: expect.stringMatching(/^not started: provision.variables.zones/),
    });
    expect(written(plan)?.conditions?.[0]).toMatchObject({
      status: 'False',
      reason: 'InvalidSpec',
    });
  });

  it("a configured template gives its source and its variables' defaults", () => {
    const templates: ClusterTemplate[] = [
      {
        module: 'local/demo',
        title: 'Demo',
        source: '/repo/examples/tofu/demo',
        variables: [
          { name: 'name', type: 'string' },
          { name: 'nodes', type: 'number', default: '1' },
        ],
      },
    ];
    const plan = planCluster(cluster(), runs(), { ...context, templates });
    const action = 'actions' in plan ? plan.actions[0] : undefined;
    const env =
      action?.type === 'createJob'
        ? action.job.spec.template.spec.containers[0].env
        : [];
    expect(env).toEqual(
      expect.arrayContaining([
        { name: 'INFRARED_MODULE_SOURCE', value: '/repo/examples/tofu/demo' },
        { name: 'TF_VAR_name', value: 'edge' },
        { name: 'TF_VAR_nodes', value: '1' },
      ]),
    );
  });
});

describe('planCluster: the status of a Job', () => {
  const recordedWaiting = (c: ClusterResource) =>
    written(planCluster(c, runs(), context))!;

  it('running: phase Running, condition Planning, no read', () => {
    const c = cluster();
    const plan = planCluster(
      { ...c, status: recordedWaiting(c) },
      runs([job('tofu-edge-1-plan', 'ready')]),
      context,
    );
    expect(types(plan)).toEqual(['writeStatus']);
    expect(written(plan)?.provision?.phase).toBe('Running');
    expect(written(plan)?.conditions?.[0]).toMatchObject({
      status: 'Unknown',
      reason: 'Planning',
    });
  });

  it('a succeeded plan: reads its log once (and the credentials), records the summary, then is steady', () => {
    const c = cluster(1, { credentialsSecretRef: { name: 'edge-aws' } });
    const observed = runs(
      [job('tofu-edge-1-plan', 'complete')],
      [pod('tofu-edge-1-plan')],
    );
    const first = planCluster(
      { ...c, status: recordedWaiting(c) },
      observed,
      context,
    );
    expect(types(first)).toEqual(['read:credentials', 'read:log']);
    const log =
      'Plan: 1 to add\ninfrared-plan-summary: "[{\\"actions\\":[\\"create\\"],\\"address\\":\\"terraform_data.cluster\\"}]"\n';
    const plan = planCluster(
      { ...c, status: recordedWaiting(c) },
      observed,
      context,
      { log, credentials: ['secret-value'] },
    );
    const status = written(plan)!;
    expect(status.provision).toMatchObject({
      phase: 'Succeeded',
      summary: {
        add: 1,
        change: 0,
        destroy: 0,
        resources: [{ address: 'terraform_data.cluster', actions: ['create'] }],
      },
      message: 'plan: 1 to add, 0 to change, 0 to destroy',
    });
    expect(status.conditions?.[0]).toMatchObject({
      status: 'False',
      reason: 'Planned',
    });
    // the next pass: nothing to read, nothing to write
    expect(planCluster({ ...c, status }, observed, context)).toEqual({
      actions: [],
      desired: status.provision,
    });
  });

  it('a failed Job: Failed with the error, credential values redacted, never made again', () => {
    const c = cluster(1, { credentialsSecretRef: { name: 'edge-aws' } });
    const observed = runs(
      [job('tofu-edge-1-plan', 'failed')],
      [
        pod(
          'tofu-edge-1-plan',
          '│ Error: Invalid provider configuration\n│ key AKIAEXAMPLEKEY rejected\n',
        ),
      ],
    );
    const plan = planCluster(
      { ...c, status: recordedWaiting(c) },
      observed,
      context,
      { credentials: ['AKIAEXAMPLEKEY'] },
    );
    const status = written(plan)!;
    expect(status.provision).toMatchObject({
      phase: 'Failed',
      message:
        'exit code 1: Error: Invalid provider configuration\nkey *** rejected',
    });
    expect(status.conditions?.[0]).toMatchObject({
      status: 'False',
      reason: 'PlanFailed',
    });
    expect(JSON.stringify(status)).not.toContain('AKIAEXAMPLEKEY');
    expect(planCluster({ ...c, status }, observed, context)).toEqual({
      actions: [],
      desired: status.provision,
    });
    expect(created(planCluster({ ...c, status }, runs(), context))).toEqual([]);
  });
});

describe('planCluster: auto-registration after apply', () => {
  const applied = (spec: Partial<ClusterResource['spec']> = {}) => {
    const c = cluster(2, { action: 'apply' }, { spec });
    const status = written(planCluster(c, runs(), context))!;
    return {
      c: { ...c, status },
      observed: runs(
        [job('tofu-edge-2-apply', 'complete')],
        [pod('tofu-edge-2-apply')],
      ),
    };
  };

  it('reads the state outputs, writes the kubeconfig Secret and the connection', () => {
    const { c, observed } = applied();
    expect(types(planCluster(c, observed, context))).toEqual(['read:outputs']);
    const plan = planCluster(c, observed, context, {
      outputs: { kubeconfig: { value: 'apiVersion: v1\nkind: Config\n' } },
    });
    expect(types(plan)).toEqual(['register', 'writeStatus']);
    const register = 'actions' in plan ? plan.actions[0] : undefined;
    expect(register).toMatchObject({
      type: 'register',
      secretName: 'cluster-edge-kubeconfig',
      kubeconfig: 'apiVersion: v1\nkind: Config\n',
    });
    const status = written(plan)!;
    expect(status.conditions?.[0]).toMatchObject({
      status: 'True',
      reason: 'Applied',
      message:
        'Job tofu-edge-2-apply applied the template; its output kubeconfig registers the cluster (Secret cluster-edge-kubeconfig)',
    });
    // registered: the connection is set (a new generation), the condition stays as it is
    const next = {
      ...c,
      metadata: { ...c.metadata, generation: 3 },
      spec: {
        ...c.spec,
        connection: {
          kubeconfigSecretRef: {
            name: 'cluster-edge-kubeconfig',
            key: 'kubeconfig',
          },
        },
      },
      status,
    };
    expect(planCluster(next, observed, context)).toEqual({
      actions: [],
      desired: status.provision,
    });
  });

  it('registered before its status said Succeeded (the status write lost to the connection write): the next pass reports the apply Job', () => {
    const { c, observed } = applied();
    // status.provision still says Waiting for tofu-edge-2-apply; the Cluster is at generation 3
    const next = {
      ...c,
      metadata: { ...c.metadata, generation: 3 },
      spec: {
        ...c.spec,
        connection: {
          kubeconfigSecretRef: {
            name: 'cluster-edge-kubeconfig',
            key: 'kubeconfig',
          },
        },
      },
    };
    const plan = planCluster(next, observed, context);
    expect(types(plan)).toEqual(['writeStatus']);
    expect(written(plan)?.provision).toMatchObject({
      job: 'tofu-edge-2-apply',
      generation: 2,
      action: 'apply',
      phase: 'Succeeded',
    });
    expect(written(plan)?.conditions?.[0]).toMatchObject({
      status: 'True',
      reason: 'Applied',
      message:
        'Job tofu-edge-2-apply applied the template; its output kubeconfig registers the cluster (Secret cluster-edge-kubeconfig)',
    });
    expect(created(plan)).toEqual([]);
  });

  it('no such output: Provisioned True, the message says what to do', () => {
    const { c, observed } = applied();
    const plan = planCluster(c, observed, context, {
      outputs: { endpoint: { value: 'x' } },
    });
    expect(types(plan)).toEqual(['writeStatus']);
    expect(written(plan)?.conditions?.[0].message).toMatch(
      /has no output kubeconfig: put the cluster's kubeconfig in a Secret and set spec.connection.kubeconfigSecretRef/,
    );
  });

  it('a Cluster that already has a connection, or auto-registration off: no read', () => {
    const { c, observed } = applied({
      connection: {
        inCluster: false,
        kubeconfigSecretRef: { name: 'mine', key: 'kubeconfig' },
      },
    });
    expect(types(planCluster(c, observed, context))).toEqual(['writeStatus']);
    const plain = applied();
    expect(
      types(
        planCluster(plain.c, plain.observed, {
          ...context,
          kubeconfigOutput: undefined,
        }),
      ),
    ).toEqual(['writeStatus']);
  });
});

describe('planCluster: an apply after a destroy (issue 23.1)', () => {
  const connection = {
    kubeconfigSecretRef: { name: 'cluster-edge-kubeconfig', key: 'kubeconfig' },
  };

  it('writes the new output over the connection its first apply wrote, once', () => {
    const c = cluster(4, { action: 'apply' }, { spec: { connection } });
    const status = written(planCluster(c, runs(), context))!;
    const observed = runs(
      [job('tofu-edge-4-apply', 'complete')],
      [pod('tofu-edge-4-apply')],
    );
    const next = { ...c, status };
    expect(types(planCluster(next, observed, context))).toEqual([
      'read:outputs',
    ]);
    const plan = planCluster(next, observed, context, {
      outputs: { kubeconfig: { value: 'apiVersion: v1\nkind: Config\n' } },
    });
    expect(types(plan)).toEqual(['register', 'writeStatus']);
    // status records the apply: no read, no registration again
    const done = { ...next, status: written(plan)! };
    expect(planCluster(done, observed, context)).toEqual({
      actions: [],
      desired: done.status.provision,
    });
  });
});

describe('indexRuns', () => {
  it('groups Jobs by cluster and keeps the newest Pod of each Job', () => {
    const older = {
      ...pod('tofu-edge-1-plan'),
      metadata: {
        ...pod('tofu-edge-1-plan').metadata,
        name: 'a',
        creationTimestamp: '2026-01-01T00:00:00Z',
      },
    } as any;
    const newer = {
      ...pod('tofu-edge-1-plan'),
      metadata: {
        ...pod('tofu-edge-1-plan').metadata,
        name: 'b',
        creationTimestamp: '2026-01-02T00:00:00Z',
      },
    } as any;
    const r = indexRuns([job('tofu-edge-1-plan', 'complete')], [newer, older]);
    expect(r.jobsByCluster.get('edge')?.map(j => j.metadata.name)).toEqual([
      'tofu-edge-1-plan',
    ]);
    expect(r.podsByJob.get('tofu-edge-1-plan')?.metadata.name).toBe('b');
  });
});

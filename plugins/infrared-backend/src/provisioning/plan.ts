/**
 * The provisioning planner: pure. For one Cluster, the Jobs and Pods of its OpenTofu runs and what
 * was read for it, it decides which reads it still needs (a finished plan's log, the credentials
 * to redact, the state's outputs), and then the writes: at most one Job for the Cluster's
 * generation and action, status.provision with the Provisioned condition, and auto-registration.
 *
 * Rules:
 * - only a workload Cluster with spec.template and spec.provision, not being deleted, is built;
 * - the Job for (generation, action) is made once: never when a Job of that name exists, never
 *   again once status.provision names it (a finished Job Kubernetes deleted is not recreated), and
 *   never when the Job that ran last had the same spec.template and spec.provision (a change of
 *   the connection alone, as auto-registration makes, is a new generation but not a new run);
 * - while another Job of the Cluster still runs, the new one waits (OpenTofu's state lock would
 *   refuse it);
 * - a Job is never retried: a failed one stays Failed until the spec changes.
 */
import {
  findTemplate,
  INFRARED_NAMESPACE,
  kubeconfigSecretName,
  PROVISIONED_CONDITION,
  provisionAction,
  templateVariables,
  tofuJobName,
  tofuStateSecretName,
  type ClusterCondition,
  type ClusterResource,
  type ClusterTemplate,
  type PlanSummary,
  type ProvisionStatus,
} from '@infrared-clusters/plugin-infrared-common';
import {
  jobPhase,
  parsePlanSummary,
  provisionedCondition,
  provisionSpecHash,
  provisionStatusFromJob,
  setCondition,
  TOFU_JOB_LABELS,
  TOFU_SPEC_HASH_ANNOTATION,
  tofuJob,
  type ConditionInput,
  type ObservedJob,
  type ObservedPod,
  type TofuJob,
} from '@infrared-clusters/plugin-infrared-node';

/** What the planner knows beyond the Cluster: the configuration of the pass. */
export interface ProvisioningContext {
  templates: readonly ClusterTemplate[];
  /** The module output holding the built cluster's kubeconfig; undefined: no auto-registration. */
  kubeconfigOutput?: string;
  namespace?: string;
  now: string;
}

/** What the executor read for one Cluster at the planner's request. */
export interface ProvisioningReads {
  /** The log of a finished plan Job's Pod (null: no log could be read). */
  log?: string | null;
  /** The credentials Secret's values, to redact (null: the Secret does not exist). */
  credentials?: string[] | null;
  /** The outputs of the state Secret (null: no state Secret). */
  outputs?: Record<string, { value: unknown }> | null;
}

export type ProvisioningRead =
  | { type: 'log'; namespace: string; pod: string; container: string }
  | { type: 'credentials'; namespace: string; secret: string }
  | { type: 'outputs'; namespace: string; secret: string };

export type ProvisioningAction =
  | { type: 'createJob'; job: TofuJob }
  | {
      /** Replace the status (precondition: the Cluster's resourceVersion as listed). */
      type: 'writeStatus';
      cluster: ClusterResource;
    }
  | {
      /** Auto-registration: the kubeconfig Secret, then spec.connection naming it. */
      type: 'register';
      cluster: ClusterResource;
      secretName: string;
      kubeconfig: string;
    };

export type ClusterPlan =
  | { reads: ProvisioningRead[] }
  | { actions: ProvisioningAction[]; desired?: ProvisionStatus };

/** The Jobs and Pods of the pass, indexed. */
export interface ObservedRuns {
  jobsByCluster: Map<string, ObservedJob[]>;
  podsByJob: Map<string, ObservedPod>;
}

const JOB_NAME_LABELS = ['batch.kubernetes.io/job-name', 'job-name'];

/** Indexes one LIST of Jobs and one of Pods. The newest Pod of a Job stands for it. */
export function indexRuns(
  jobs: readonly ObservedJob[],
  pods: readonly ObservedPod[],
): ObservedRuns {
  const jobsByCluster = new Map<string, ObservedJob[]>();
  for (const job of jobs) {
    const name = job.metadata.labels?.[TOFU_JOB_LABELS.cluster];
    if (!name) continue;
    jobsByCluster.set(name, [...(jobsByCluster.get(name) ?? []), job]);
  }
  const podsByJob = new Map<string, ObservedPod>();
  for (const pod of pods) {
    const job = JOB_NAME_LABELS.map(l => pod.metadata.labels?.[l]).find(
      Boolean,
    );
    if (!job) continue;
    const seen = podsByJob.get(job) as any;
    const created = (p: any) => String(p?.metadata?.creationTimestamp ?? '');
    if (!seen || created(pod) > created(seen)) podsByJob.set(job, pod);
  }
  return { jobsByCluster, podsByJob };
}

/** Whether a Cluster is one provisioning acts on. */
export function isBuilt(cluster: ClusterResource): boolean {
  const { spec, metadata } = cluster;
  return (
    !!spec.template &&
    !!spec.provision &&
    spec.type !== 'management' &&
    !metadata.deletionTimestamp
  );
}

const finished = (phase: string) => phase === 'Succeeded' || phase === 'Failed';

function canonical(value: unknown): string {
  return JSON.stringify(value ?? null, (_k, v) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(
          Object.keys(v)
            .sort()
            .filter(k => v[k] !== undefined)
            .map(k => [k, v[k]]),
        )
      : v,
  );
}

/** The status write for a desired provision status and condition, if anything changes. */
export function statusAction(
  cluster: ClusterResource,
  desired: ProvisionStatus | undefined,
  condition: ConditionInput,
  now: string,
): ProvisioningAction | undefined {
  const conditions: ClusterCondition[] = setCondition(
    cluster.status?.conditions,
    condition,
    now,
  );
  const current = cluster.status ?? {};
  const same =
    canonical(current.provision) === canonical(desired) &&
    canonical(
      current.conditions?.find(c => c.type === PROVISIONED_CONDITION),
    ) === canonical(conditions.find(c => c.type === PROVISIONED_CONDITION));
  if (same) return undefined;
  return {
    type: 'writeStatus',
    cluster: {
      ...cluster,
      status: desired
        ? { ...current, provision: desired, conditions }
        : { ...current, conditions },
    },
  };
}

/** Plans one Cluster. Call again with the reads it asks for. */
export function planCluster(
  cluster: ClusterResource,
  runs: ObservedRuns,
  context: ProvisioningContext,
  reads?: ProvisioningReads,
): ClusterPlan {
  if (!isBuilt(cluster)) return { actions: [] };
  const namespace = context.namespace ?? INFRARED_NAMESPACE;
  const { name, uid } = cluster.metadata;
  const generation = cluster.metadata.generation ?? 1;
  const provision = cluster.spec.provision!;
  const action = provisionAction(provision);
  const specHash = provisionSpecHash(cluster);
  const jobName = tofuJobName(name, generation, action);
  const recorded = cluster.status?.provision;
  const own = runs.jobsByCluster.get(name) ?? [];
  const ours = (j: ObservedJob) => {
    const jobUid = j.metadata.labels?.[TOFU_JOB_LABELS.clusterUid];
    return !jobUid || !uid || jobUid === uid;
  };
  const credentialsSecret = provision.credentialsSecretRef?.name;
  const template = findTemplate(context.templates, cluster.spec.template!);
  const write = (
    desired: ProvisionStatus | undefined,
    condition: ConditionInput,
  ) => {
    const a = statusAction(cluster, desired, condition, context.now);
    return { actions: a ? [a] : [], desired };
  };
  const waiting = (message: string, job = jobName): ClusterPlan => {
    const desired: ProvisionStatus = {
      action,
      generation,
      job,
      phase: 'Waiting',
      message,
      logs: `kubectl -n ${namespace} logs job/${job}`,
      specHash,
    };
    return write(desired, provisionedCondition(desired, generation));
  };

  /**
   * The Job is not made yet and must wait: only the condition says so. status.provision keeps the
   * last Job that exists, and never names one that was not made (that name means "made").
   */
  const held = (message: string): ClusterPlan => {
    const condition: ConditionInput = {
      type: PROVISIONED_CONDITION,
      status: 'Unknown',
      reason: 'JobWaiting',
      message: `Job ${jobName}: ${message}`,
      observedGeneration: generation,
    };
    return write(recorded, condition);
  };

  // The Job to report: this generation's and action's, or, when the template and provision have
  // not changed since (only the connection did), the one that ran them
  let current = own.find(j => j.metadata.name === jobName);
  if (!current && recorded && recorded.specHash === specHash) {
    current = own.find(j => j.metadata.name === recorded.job && ours(j));
  }
  if (current && !ours(current)) {
    return held(
      `the Job of that name belongs to an earlier Cluster named ${name}; waiting for Kubernetes to delete it`,
    );
  }

  if (!current) {
    if (recorded?.job === jobName) return { actions: [] };
    if (recorded?.specHash === specHash) return { actions: [] };
    const running = own.find(
      j =>
        ours(j) && !finished(jobPhase(j, runs.podsByJob.get(j.metadata.name))),
    );
    if (running) {
      return held(`waits for Job ${running.metadata.name} to finish`);
    }
    let job: TofuJob;
    try {
      job = tofuJob(cluster, {
        namespace,
        templateSource: template?.source,
        variables: template
          ? templateVariables(template, provision.variables)
          : undefined,
      });
    } catch (e) {
      const desired: ProvisionStatus = {
        action,
        generation,
        job: jobName,
        phase: 'Failed',
        message: `not started: ${(e as Error).message}`,
        specHash,
      };
      return write(desired, {
        type: PROVISIONED_CONDITION,
        status: 'False',
        reason: 'InvalidSpec',
        message: desired.message!,
        observedGeneration: generation,
      });
    }
    const plan = waiting('waiting for the Job to start its Pod');
    return 'actions' in plan
      ? { ...plan, actions: [{ type: 'createJob', job }, ...plan.actions] }
      : plan;
  }

  // The Job exists: report it, with its own action and generation.
  const currentName = current.metadata.name;
  const labels = current.metadata.labels ?? {};
  const runAction = labels[TOFU_JOB_LABELS.action] ?? action;
  const runGeneration = Number(
    labels[TOFU_JOB_LABELS.generation] ?? generation,
  );
  const pod = runs.podsByJob.get(currentName);
  const phase = jobPhase(current, pod);
  const alreadyFinal =
    recorded?.job === currentName &&
    finished(recorded.phase) &&
    recorded.phase === phase;
  const needs: ProvisioningRead[] = [];
  if (finished(phase) && !alreadyFinal && reads === undefined) {
    if (credentialsSecret)
      needs.push({ type: 'credentials', namespace, secret: credentialsSecret });
    if (phase === 'Succeeded' && runAction === 'plan' && pod)
      needs.push({
        type: 'log',
        namespace,
        pod: pod.metadata.name,
        container: 'tofu',
      });
  }
  const wantsRegistration =
    phase === 'Succeeded' &&
    runAction === 'apply' &&
    !cluster.spec.connection &&
    !!context.kubeconfigOutput;
  if (wantsRegistration && reads?.outputs === undefined)
    needs.push({
      type: 'outputs',
      namespace,
      secret: tofuStateSecretName(name),
    });
  if (needs.length) return { reads: needs };

  let summary: PlanSummary | undefined;
  if (alreadyFinal) summary = recorded?.summary;
  else if (typeof reads?.log === 'string')
    summary = parsePlanSummary(reads.log);
  const desired = alreadyFinal
    ? { ...recorded! }
    : provisionStatusFromJob(current, {
        action: runAction,
        generation: runGeneration,
        pod,
        specHash:
          current.metadata.annotations?.[TOFU_SPEC_HASH_ANNOTATION] ?? specHash,
        summary,
        secrets: reads?.credentials ?? [],
      });
  if (
    !alreadyFinal &&
    runAction === 'plan' &&
    phase === 'Succeeded' &&
    !summary
  ) {
    desired.message = 'plan: no summary in the log (see the log for the plan)';
  }
  let condition = provisionedCondition(desired, runGeneration);
  const actions: ProvisioningAction[] = [];
  const secretName = kubeconfigSecretName(name);
  const registered = `; its output ${context.kubeconfigOutput} registers the cluster (Secret ${secretName})`;
  if (wantsRegistration) {
    const output = context.kubeconfigOutput!;
    const value = reads?.outputs?.[output]?.value;
    if (typeof value === 'string' && value.trim()) {
      actions.push({
        type: 'register',
        cluster,
        secretName,
        kubeconfig: value,
      });
      condition = { ...condition, message: condition.message + registered };
    } else {
      condition = {
        ...condition,
        message: `${condition.message}; it has no output ${output}: put the cluster's kubeconfig in a Secret and set spec.connection.kubeconfigSecretRef`,
      };
    }
  } else if (
    phase === 'Succeeded' &&
    runAction === 'apply' &&
    context.kubeconfigOutput &&
    cluster.spec.connection?.kubeconfigSecretRef?.name === secretName
  ) {
    condition = { ...condition, message: condition.message + registered };
  }
  const status = statusAction(cluster, desired, condition, context.now);
  return { actions: status ? [...actions, status] : actions, desired };
}

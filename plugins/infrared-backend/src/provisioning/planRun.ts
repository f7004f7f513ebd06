import {
  DEFAULT_TOFU_NAMESPACE,
  findTemplate,
  PROVISIONED_CONDITION,
  provisionAction,
  templateVariables,
  tofuJobName,
  tofuStateSecretName,
  secretNameProblem,
  validateAllowedProvision,
  type ClusterResource,
  type ClusterTemplate,
  type PlanSummary,
  type ProvisionAction,
  type ProvisionStatus,
} from '@infrared-clusters/plugin-infrared-common';
import {
  jobPhase,
  parsePlanSummary,
  provisionedCondition,
  provisionSpecHash,
  provisionStatusFromJob,
  TOFU_JOB_LABELS,
  TOFU_SPEC_HASH_ANNOTATION,
  tofuJob,
  type ConditionInput,
  type ObservedJob,
  type ObservedPod,
  type TofuJob,
} from '@infrared-clusters/infrared-kube';
import { registration, wantsRegistration } from './planRegister';
import { finished, statusAction } from './planStatus';
import type {
  ClusterPlan,
  ObservedRuns,
  ProvisioningContext,
  ProvisioningRead,
  ProvisioningReads,
} from './planTypes';

/** One built Cluster's run as the planner sees it: what it runs now, and what ran. */
export interface ClusterRun {
  cluster: ClusterResource;
  runs: ObservedRuns;
  context: ProvisioningContext;
  reads?: ProvisioningReads;
  namespace: string;
  name: string;
  uid?: string;
  generation: number;
  action: ProvisionAction;
  specHash: string;
  /**
   * The Job for the Cluster's generation and action: `tofu-<cluster>-<generation>-<action>`, or
   * with `-<uid prefix>` when a Job of an earlier Cluster of the same name holds that name (Jobs
   * outlive their Cluster by a week).
   */
  jobName: string;
  recorded?: ProvisionStatus;
  /** The Cluster's Jobs (this incarnation's), whatever their generation. */
  own: ObservedJob[];
  /** Jobs of earlier Clusters of the same name, still kept by Kubernetes. */
  leftovers: ObservedJob[];
  template?: ClusterTemplate;
}

export function clusterRun(
  cluster: ClusterResource,
  runs: ObservedRuns,
  context: ProvisioningContext,
  reads?: ProvisioningReads,
): ClusterRun {
  const { name, uid } = cluster.metadata;
  const generation = cluster.metadata.generation ?? 1;
  const action = provisionAction(cluster.spec.provision!);
  const all = runs.jobsByCluster.get(name) ?? [];
  const own = all.filter(j => isOwnJob(uid, j));
  const leftovers = all.filter(j => !isOwnJob(uid, j));
  const base = tofuJobName(name, generation, action);
  const suffix = (uid ?? '').replace(/[^a-z0-9]/g, '').slice(0, 4);
  return {
    cluster,
    runs,
    context,
    reads,
    namespace: context.namespace ?? DEFAULT_TOFU_NAMESPACE,
    name,
    uid,
    generation,
    action,
    specHash: provisionSpecHash(cluster),
    jobName:
      suffix && leftovers.some(j => j.metadata.name === base)
        ? `${base}-${suffix}`
        : base,
    recorded: cluster.status?.provision,
    own,
    leftovers,
    template: findTemplate(context.templates, cluster.spec.template!),
  };
}

function isOwnJob(uid: string | undefined, j: ObservedJob): boolean {
  const jobUid = j.metadata.labels?.[TOFU_JOB_LABELS.clusterUid];
  return !jobUid || !uid || jobUid === uid;
}

/** A Job of this Cluster's incarnation (not of an earlier Cluster of the same name). */
export function ownsJob(run: ClusterRun, j: ObservedJob): boolean {
  return isOwnJob(run.uid, j);
}

function write(
  run: ClusterRun,
  desired: ProvisionStatus | undefined,
  condition: ConditionInput,
): ClusterPlan {
  const a = statusAction(run.cluster, desired, condition, run.context.now);
  return { actions: a ? [a] : [], desired };
}

function waiting(run: ClusterRun, message: string): ClusterPlan {
  const { action, generation, jobName: job, namespace, specHash } = run;
  const desired: ProvisionStatus = {
    action,
    generation,
    job,
    phase: 'Waiting',
    message,
    logs: `kubectl -n ${namespace} logs job/${job}`,
    specHash,
  };
  return write(run, desired, provisionedCondition(desired, generation));
}

/**
 * The Job is not made yet and must wait: only the condition says so. status.provision keeps the
 * last Job that exists, and never names one that was not made (that name means "made").
 */
export function held(run: ClusterRun, message: string): ClusterPlan {
  const condition: ConditionInput = {
    type: PROVISIONED_CONDITION,
    status: 'Unknown',
    reason: 'JobWaiting',
    message: `Job ${run.jobName}: ${message}`,
    observedGeneration: run.generation,
  };
  return write(run, run.recorded, condition);
}

/**
 * The Job to report: this generation's and action's, or, when the template and provision have not
 * changed since (only the connection did), the one that ran them.
 */
export function currentJob(run: ClusterRun): ObservedJob | undefined {
  const { own, jobName, recorded, specHash } = run;
  const current = own.find(j => j.metadata.name === jobName);
  if (current || !recorded || recorded.specHash !== specHash) return current;
  return own.find(j => j.metadata.name === recorded.job && ownsJob(run, j));
}

/** status.provision and the condition of a Job that is not started because the spec is refused. */
function invalidSpec(run: ClusterRun, problem: string): ClusterPlan {
  const desired: ProvisionStatus = {
    action: run.action,
    generation: run.generation,
    job: run.jobName,
    phase: 'Failed',
    message: `not started: ${problem}`,
    specHash: run.specHash,
  };
  return write(run, desired, {
    type: PROVISIONED_CONDITION,
    status: 'False',
    reason: 'InvalidSpec',
    message: desired.message!,
    observedGeneration: run.generation,
  });
}

/** A Job of the Cluster (or of an earlier Cluster of that name: same state, same lock) that runs. */
function runningJob(run: ClusterRun): string | undefined {
  const { own, leftovers, runs } = run;
  const running = (j: ObservedJob) =>
    !finished(jobPhase(j, runs.podsByJob.get(j.metadata.name)));
  const mine = own.find(running);
  if (mine) return `waits for Job ${mine.metadata.name} to finish`;
  const earlier = leftovers.find(running);
  return earlier
    ? `waits for Job ${earlier.metadata.name} of an earlier Cluster named ${run.name} to finish (it uses the same state)`
    : undefined;
}

/** No Job to report: make this generation's, unless it ran already or another still runs. */
export function startJob(run: ClusterRun): ClusterPlan {
  const { recorded, jobName, specHash, cluster, template, context } = run;
  if (recorded?.job === jobName) return { actions: [] };
  if (recorded?.specHash === specHash) return { actions: [] };
  const waits = runningJob(run);
  if (waits) return held(run, waits);
  const provision = cluster.spec.provision!;
  const refused = context.allow
    ? validateAllowedProvision(provision, context.allow)
    : [];
  const credentials = provision.credentialsSecretRef?.name;
  const credentialsProblem =
    credentials === undefined ? undefined : secretNameProblem(credentials);
  if (credentialsProblem)
    refused.push({
      field: 'provision.credentialsSecretRef.name',
      message: credentialsProblem,
    });
  // Infrared's newer Clusters name a CloudAccount instead (reference B); without a Secret the Job
  // would run with no cloud credentials at all
  if (provision.cloudAccount && credentials === undefined)
    refused.push({
      field: 'provision.cloudAccount',
      message: `"${provision.cloudAccount}" names an Infrared CloudAccount, which these plugins do not read: name the Secret holding the cloud credentials in provision.credentialsSecretRef`,
    });
  if (refused.length)
    return invalidSpec(
      run,
      refused
        .map(
          (e: { field: string; message: string }) => `${e.field}: ${e.message}`,
        )
        .join('; '),
    );
  let job: TofuJob;
  try {
    job = tofuJob(cluster, {
      namespace: run.namespace,
      name: jobName,
      templateSource: template?.source,
      templateImage: template?.image,
      variables: template
        ? templateVariables(template, provision.variables)
        : undefined,
    });
  } catch (e) {
    return invalidSpec(run, (e as Error).message);
  }
  const plan = waiting(run, 'waiting for the Job to start its Pod');
  return 'actions' in plan
    ? { ...plan, actions: [{ type: 'createJob', job }, ...plan.actions] }
    : plan;
}

/** What is known of the Job to report. */
export interface ReportedJob {
  job: ObservedJob;
  action: string;
  generation: number;
  pod?: ObservedPod;
  phase: string;
  /** status.provision already records this Job's final phase. */
  alreadyFinal: boolean;
  /** An apply that succeeded registers the cluster from its output. */
  wantsRegistration: boolean;
}

function reportedJob(run: ClusterRun, job: ObservedJob): ReportedJob {
  const { recorded } = run;
  const labels = job.metadata.labels ?? {};
  const action = labels[TOFU_JOB_LABELS.action] ?? run.action;
  const pod = run.runs.podsByJob.get(job.metadata.name);
  const phase = jobPhase(job, pod);
  const generation = Number(
    labels[TOFU_JOB_LABELS.generation] ?? run.generation,
  );
  const alreadyFinal =
    recorded?.job === job.metadata.name &&
    finished(recorded.phase) &&
    recorded.phase === phase;
  return {
    job,
    action,
    generation,
    pod,
    phase,
    alreadyFinal,
    wantsRegistration: wantsRegistration(run, {
      phase,
      action,
      generation,
      alreadyFinal,
    }),
  };
}

/** The reads a finished Job needs first: credentials to redact, a plan's log, an apply's outputs. */
function readsFor(run: ClusterRun, r: ReportedJob): ProvisioningRead[] {
  const { namespace, reads } = run;
  const credentialsSecret =
    run.cluster.spec.provision!.credentialsSecretRef?.name;
  const needs: ProvisioningRead[] = [];
  if (finished(r.phase) && !r.alreadyFinal && reads === undefined) {
    if (credentialsSecret)
      needs.push({ type: 'credentials', namespace, secret: credentialsSecret });
    if (r.phase === 'Succeeded' && r.action === 'plan' && r.pod)
      needs.push({
        type: 'log',
        namespace,
        pod: r.pod.metadata.name,
        container: 'tofu',
      });
  }
  if (r.wantsRegistration && reads?.outputs === undefined)
    needs.push({
      type: 'outputs',
      namespace,
      secret: tofuStateSecretName(run.name),
    });
  return needs;
}

/** status.provision for the reported Job. */
function reportedStatus(run: ClusterRun, r: ReportedJob): ProvisionStatus {
  const { recorded, reads, specHash } = run;
  let summary: PlanSummary | undefined;
  if (r.alreadyFinal) summary = recorded?.summary;
  else if (typeof reads?.log === 'string')
    summary = parsePlanSummary(reads.log);
  const desired = r.alreadyFinal
    ? { ...recorded! }
    : provisionStatusFromJob(r.job, {
        action: r.action as ProvisionAction,
        generation: r.generation,
        pod: r.pod,
        specHash:
          r.job.metadata.annotations?.[TOFU_SPEC_HASH_ANNOTATION] ?? specHash,
        summary,
        secrets: reads?.credentials ?? [],
      });
  if (
    !r.alreadyFinal &&
    r.action === 'plan' &&
    r.phase === 'Succeeded' &&
    !summary
  ) {
    desired.message = 'plan: no summary in the log (see the log for the plan)';
  }
  return desired;
}

/** The Job exists: report it, with its own action and generation (after the reads it needs). */
export function reportJob(run: ClusterRun, job: ObservedJob): ClusterPlan {
  const r = reportedJob(run, job);
  const needs = readsFor(run, r);
  if (needs.length) return { reads: needs };
  const desired = reportedStatus(run, r);
  const { actions, condition } = registration(
    run,
    r,
    provisionedCondition(desired, r.generation),
  );
  const status = statusAction(run.cluster, desired, condition, run.context.now);
  return { actions: status ? [...actions, status] : actions, desired };
}

import {
  scrubSecrets,
  PROVISIONED_CONDITION,
  tofuLogsCommand,
  type PlanSummary,
  type ProvisionPhase,
  type ProvisionStatus,
} from '@infrared-clusters/plugin-infrared-common';
import type { ConditionInput } from '../conditions';
import { PLAN_SUMMARY_MARKER } from './script';

/**
 * The parts of a batch/v1 Job the status is read from.
 *
 * @public
 */
export interface ObservedJob {
  metadata: {
    name: string;
    namespace?: string;
    uid?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
    creationTimestamp?: string;
  };
  status?: {
    active?: number;
    ready?: number;
    succeeded?: number;
    failed?: number;
    startTime?: string;
    completionTime?: string;
    conditions?: Array<{
      type: string;
      status: string;
      reason?: string;
      message?: string;
    }>;
  };
}

/**
 * The parts of a Job's Pod the status is read from.
 *
 * @public
 */
export interface ObservedPod {
  metadata: { name: string; labels?: Record<string, string> };
  status?: {
    phase?: string;
    reason?: string;
    message?: string;
    containerStatuses?: Array<{
      name: string;
      state?: {
        waiting?: { reason?: string; message?: string };
        running?: { startedAt?: string };
        terminated?: { exitCode: number; reason?: string; message?: string };
      };
    }>;
  };
}

const isTrue = (job: ObservedJob, type: string) =>
  !!job.status?.conditions?.some(c => c.type === type && c.status === 'True');

const condition = (job: ObservedJob, type: string) =>
  job.status?.conditions?.find(c => c.type === type && c.status === 'True');

/**
 * The last lines of a message, at most `max` characters.
 *
 * @public
 */
export function tail(text: string, max = 1024): string {
  const trimmed = text.trim();
  if (trimmed.length <= max) return trimmed;
  const cut = trimmed.slice(trimmed.length - max);
  const nl = cut.indexOf('\n');
  return `…${nl >= 0 && nl < cut.length - 1 ? cut.slice(nl + 1) : cut}`;
}

/**
 * Text without terminal colour codes (a module may print them whatever -no-color says).
 *
 * @public
 */
export function stripAnsi(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\u001b\[[0-9;]*m/g, '');
}

/**
 * OpenTofu's error lines ("Error: ..." and what follows), without its box drawing.
 *
 * @public
 */
export function tofuErrorMessage(text: string): string {
  const lines = stripAnsi(text)
    .split('\n')
    .map(l => l.replace(/^[\s│╷╵]+/u, '').trimEnd());
  const first = lines.findIndex(l => l.startsWith('Error: '));
  const relevant = first >= 0 ? lines.slice(first) : lines;
  return tail(relevant.filter(l => l !== '').join('\n'));
}

/**
 * The phase of a Job: Succeeded or Failed once Kubernetes says Complete or Failed; Running while its
 * Pod runs (the Job counts it ready, or the Pod says Running); Waiting before that.
 *
 * @public
 */
export function jobPhase(job: ObservedJob, pod?: ObservedPod): ProvisionPhase {
  if (isTrue(job, 'Complete')) return 'Succeeded';
  if (isTrue(job, 'Failed')) return 'Failed';
  if ((job.status?.ready ?? 0) > 0 || pod?.status?.phase === 'Running')
    return 'Running';
  if (isTrue(job, 'FailureTarget') || isTrue(job, 'SuccessCriteriaMet'))
    return 'Running';
  return 'Waiting';
}

/**
 * Why the Job failed: the container's termination message (the log's tail), else the Job's.
 *
 * @public
 */
export function jobFailureMessage(job: ObservedJob, pod?: ObservedPod): string {
  const terminated = pod?.status?.containerStatuses?.find(
    c => c.state?.terminated,
  )?.state?.terminated;
  if (terminated?.message) {
    return `exit code ${terminated.exitCode}: ${tofuErrorMessage(
      terminated.message,
    )}`;
  }
  if (terminated)
    return `exit code ${terminated.exitCode} (${terminated.reason ?? 'Error'})`;
  const failed = condition(job, 'Failed') ?? condition(job, 'FailureTarget');
  return failed
    ? `${failed.reason ?? 'Failed'}: ${failed.message ?? 'the Job failed'}`
    : 'the Job failed';
}

/**
 * What a Pod waits for, when it is not running yet.
 *
 * @public
 */
export function podWaitingMessage(pod?: ObservedPod): string {
  if (!pod) return 'waiting for the Job to start its Pod';
  const waiting = pod.status?.containerStatuses?.find(c => c.state?.waiting)
    ?.state?.waiting;
  if (waiting?.reason)
    return `Pod ${pod.metadata.name}: ${waiting.reason}${
      waiting.message ? `: ${waiting.message}` : ''
    }`;
  return `Pod ${pod.metadata.name} is ${pod.status?.phase ?? 'Pending'}${
    pod.status?.message ? `: ${pod.status.message}` : ''
  }`;
}

/**
 * The counts a list of resource changes makes: a replacement adds one and destroys one.
 *
 * @public
 */
export function summarize(resources: PlanSummary['resources']): PlanSummary {
  let add = 0;
  let change = 0;
  let destroy = 0;
  for (const r of resources) {
    if (r.actions.includes('create')) add++;
    if (r.actions.includes('update')) change++;
    if (r.actions.includes('delete')) destroy++;
  }
  return { add, change, destroy, resources };
}

/**
 * "2 to add, 0 to change, 1 to destroy", as OpenTofu says it.
 *
 * @public
 */
export function planSummaryText(summary: PlanSummary): string {
  return `${summary.add} to add, ${summary.change} to change, ${summary.destroy} to destroy`;
}

/**
 * The plan summary a plan Job's log carries (the line `infrared-plan-summary: <JSON>` that
 * `tofu console` printed: a string literal holding the JSON list of changed resources).
 *
 * @public
 */
export function parsePlanSummary(log: string): PlanSummary | undefined {
  const line = log
    .split('\n')
    .reverse()
    .find(l => l.startsWith(PLAN_SUMMARY_MARKER));
  if (!line) return undefined;
  let text = line.slice(PLAN_SUMMARY_MARKER.length).trim();
  try {
    if (text.startsWith('"')) {
      // an HCL string literal: JSON's escapes, plus $${ and %%{ for template sequences
      text = (JSON.parse(text) as string)
        .replace(/\$\$\{/g, '${')
        .replace(/%%\{/g, '%{');
    }
    const list = JSON.parse(text);
    if (!Array.isArray(list)) return undefined;
    const resources = list
      .filter(
        (r: any) =>
          r && typeof r.address === 'string' && Array.isArray(r.actions),
      )
      .map((r: any) => ({
        address: r.address as string,
        actions: (r.actions as unknown[]).map(String),
      }));
    return summarize(resources);
  } catch {
    return undefined;
  }
}

/**
 * Replaces every credential value (at least 4 characters long) in a text by `***`, then whatever
 * else has the shape of a credential (-common's scrubber: tokens, keys, URLs with user information).
 *
 * @public
 */
export function redact(text: string, secrets: Iterable<string>): string {
  let out = text;
  const values = [...secrets].filter(s => s.length >= 4);
  values.sort((a, b) => b.length - a.length);
  for (const value of values) out = out.split(value).join('***');
  return scrubSecrets(out);
}

/**
 * status.provision for a Job: its action and generation (from the Job's labels), its name, phase,
 * the failure or waiting message and the command that shows its log.
 *
 * @public
 */
export function provisionStatusFromJob(
  job: ObservedJob,
  options: {
    action: string;
    generation: number;
    pod?: ObservedPod;
    specHash?: string;
    summary?: PlanSummary;
    /** Credential values that must not appear in the message. */
    secrets?: Iterable<string>;
  },
): ProvisionStatus {
  const phase = jobPhase(job, options.pod);
  const status: ProvisionStatus = {
    action: options.action,
    generation: options.generation,
    job: job.metadata.name,
    phase,
    logs: tofuLogsCommand(job.metadata.name, job.metadata.namespace),
  };
  let message: string | undefined;
  if (phase === 'Failed') message = jobFailureMessage(job, options.pod);
  else if (phase === 'Waiting') message = podWaitingMessage(options.pod);
  else if (phase === 'Succeeded' && options.summary)
    message = `plan: ${planSummaryText(options.summary)}`;
  if (message) status.message = redact(message, options.secrets ?? []);
  if (options.summary && phase === 'Succeeded')
    status.summary = options.summary;
  if (options.specHash) status.specHash = options.specHash;
  return status;
}

const ACTION_WORDS: Record<
  string,
  { running: string; done: string; failed: string }
> = {
  plan: { running: 'Planning', done: 'Planned', failed: 'PlanFailed' },
  apply: { running: 'Applying', done: 'Applied', failed: 'ApplyFailed' },
  destroy: {
    running: 'Destroying',
    done: 'Destroyed',
    failed: 'DestroyFailed',
  },
};

/**
 * The Provisioned condition for status.provision: True once an apply succeeded (reason Applied);
 * False after a plan (Planned, with the summary), a destroy (Destroyed) or a failure
 * (PlanFailed, ApplyFailed, DestroyFailed); Unknown while a Job waits or runs.
 *
 * @public
 */
export function provisionedCondition(
  status: ProvisionStatus,
  observedGeneration?: number,
): ConditionInput {
  const words = ACTION_WORDS[status.action] ?? ACTION_WORDS.plan;
  const base = { type: PROVISIONED_CONDITION, observedGeneration };
  switch (status.phase) {
    case 'Succeeded':
      if (status.action === 'apply')
        return {
          ...base,
          status: 'True',
          reason: words.done,
          message: `Job ${status.job} applied the template`,
        };
      if (status.action === 'destroy')
        return {
          ...base,
          status: 'False',
          reason: words.done,
          message: `Job ${status.job} destroyed what the template built`,
        };
      return {
        ...base,
        status: 'False',
        reason: words.done,
        message: `Job ${status.job} planned ${
          status.summary ? planSummaryText(status.summary) : 'the template'
        }; Apply builds it (provision.action: apply)`,
      };
    case 'Failed':
      return {
        ...base,
        status: 'False',
        reason: words.failed,
        message: `Job ${status.job} failed: ${status.message ?? ''}`.trim(),
      };
    case 'Running':
      return {
        ...base,
        status: 'Unknown',
        reason: words.running,
        message: `Job ${status.job} is running`,
      };
    default:
      return {
        ...base,
        status: 'Unknown',
        reason: 'JobWaiting',
        message: `Job ${status.job}: ${status.message ?? 'waiting'}`,
      };
  }
}

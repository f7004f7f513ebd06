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
 *   refuse it), and so while a Job of an earlier Cluster of the same name runs (Jobs are not owned
 *   by their Cluster: they outlive it); a finished one of those only moves the new Job's name to
 *   `tofu-<cluster>-<generation>-<action>-<uid prefix>`;
 * - provision.image and provision.source must be allowed (infrared.provisioning.allowedImages,
 *   allowedSources), or the Job is not made (InvalidSpec);
 * - a Job is never retried: a failed one stays Failed until the spec changes.
 */
import type { ClusterResource } from '@infrared-clusters/plugin-infrared-common';
import {
  TOFU_JOB_LABELS,
  type ObservedJob,
  type ObservedPod,
} from '@infrared-clusters/infrared-kube';
import { clusterRun, currentJob, reportJob, startJob } from './planRun';
import type {
  ClusterPlan,
  ObservedRuns,
  ProvisioningContext,
  ProvisioningReads,
} from './planTypes';

export { statusAction } from './planStatus';
export type {
  ClusterPlan,
  ObservedRuns,
  ProvisioningAction,
  ProvisioningContext,
  ProvisioningRead,
  ProvisioningReads,
} from './planTypes';

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

/** Plans one Cluster. Call again with the reads it asks for. */
export function planCluster(
  cluster: ClusterResource,
  runs: ObservedRuns,
  context: ProvisioningContext,
  reads?: ProvisioningReads,
): ClusterPlan {
  if (!isBuilt(cluster)) return { actions: [] };
  const run = clusterRun(cluster, runs, context, reads);
  const current = currentJob(run);
  return current ? reportJob(run, current) : startJob(run);
}

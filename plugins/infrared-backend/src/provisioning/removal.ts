import {
  buildInProgressFromStatus,
  CLUSTER_NAME_LABEL,
  isBillableAction,
  PROVISIONED_CONDITION,
  tofuJobName,
  type BuildInProgress,
  type ClusterResource,
} from '@infrared-clusters/plugin-infrared-common';
import {
  jobPhase,
  provisionSpecHash,
  TOFU_JOB_LABELS,
  TOFU_JOB_SELECTOR,
  type ProvisioningKubeApi,
} from '@infrared-clusters/infrared-kube';

/** Provisioned reasons after which the asked-for Job will never be made (until the spec changes). */
const NEVER_STARTS = new Set(['JobRefused', 'InvalidSpec']);

/**
 * The apply or destroy of a built Cluster that runs now or is about to, if any (issue 20.4): a
 * Job of this Cluster (by uid) for apply or destroy that has not finished, as the Jobs say it, not
 * the last pass's status; else an apply or destroy the spec asks for whose Job the next pass makes
 * (the status has not recorded a Job for this spec yet, and nothing refused it).
 */
export async function findBuildInProgress(
  kube: Pick<ProvisioningKubeApi, 'listJobs'>,
  namespace: string,
  cluster: ClusterResource,
): Promise<BuildInProgress | undefined> {
  const { name, uid } = cluster.metadata;
  if (!cluster.spec.template || !cluster.spec.provision) return undefined;
  const jobs = await kube.listJobs(
    namespace,
    `${TOFU_JOB_SELECTOR},${CLUSTER_NAME_LABEL}=${name}`,
  );
  for (const job of jobs) {
    const labels = job.metadata.labels ?? {};
    const jobUid = labels[TOFU_JOB_LABELS.clusterUid];
    if (uid && jobUid && jobUid !== uid) continue; // an earlier Cluster's
    const running = buildInProgressFromStatus({
      action: labels[TOFU_JOB_LABELS.action],
      job: job.metadata.name,
      phase: jobPhase(job),
    });
    if (running) return running;
  }
  const action = cluster.spec.provision.action ?? 'plan';
  const recorded = cluster.status?.provision;
  const reason = cluster.status?.conditions?.find(
    c => c.type === PROVISIONED_CONDITION,
  )?.reason;
  if (
    isBillableAction(action) &&
    recorded?.specHash !== provisionSpecHash(cluster) &&
    !(reason && NEVER_STARTS.has(reason))
  ) {
    const generation = cluster.metadata.generation ?? 1;
    return {
      job: tofuJobName(name, generation, action),
      action,
      phase: 'Waiting',
    };
  }
  return undefined;
}

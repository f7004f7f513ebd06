import {
  scrubSecrets,
  type ClusterResource,
  type ClusterStatus,
} from '@infrared-clusters/plugin-infrared-common';
import {
  isAlreadyExists,
  isConflict,
  isNotFound,
  retryOnConflict,
  type ClusterApi,
  type ManagementApi,
  type SecretApi,
} from '@infrared-clusters/infrared-kube';
import type { LoggerService } from '@backstage/backend-plugin-api';
import type { GitopsPublisher } from '../gitops';
import type { PassCounters } from './passSummary';
import {
  settleRegistered,
  statusWrite,
  type ClusterOutcome,
  type ClusterPlan,
  type ObservedCluster,
  type PublishStep,
  type SecretAction,
} from './plan';

/**
 * A write lost a race: a resourceVersion or UID precondition failed, the name was taken meanwhile,
 * or the object is gone. The executor requeues the Cluster: reads it again and plans again.
 */
export const lostRace = (e: unknown) =>
  isConflict(e) || isAlreadyExists(e) || isNotFound(e);

/** One Secret action as one API call. Throws what the API server answered (see `lostRace`). */
export async function applySecretAction(
  secrets: SecretApi,
  action: SecretAction,
): Promise<void> {
  switch (action.type) {
    case 'adoptKubeconfigSecret':
      await secrets.patchMetadata(
        action.namespace,
        action.name,
        { labels: action.labels, ownerReferences: action.ownerReferences },
        action.resourceVersion,
      );
      return;
    case 'createArgoSecret':
      await secrets.create(action.secret);
      return;
    case 'replaceArgoSecret':
      await secrets.replace(action.secret);
      return;
    case 'deleteArgoSecret':
      try {
        await secrets.delete(action.namespace, action.name, {
          uid: action.uid,
        });
      } catch (e) {
        // Already gone: what the action wanted.
        if (!isNotFound(e)) throw e;
      }
      return;
    default:
      throw new Error(`unknown action ${(action as SecretAction).type}`);
  }
}

/** The status with every condition message scrubbed: they quote Kubernetes, git and GitHub errors. */
function scrubConditions(status: ClusterStatus): ClusterStatus {
  if (!status.conditions) return status;
  return {
    ...status,
    conditions: status.conditions.map(c =>
      c.message ? { ...c, message: scrubSecrets(c.message) } : c,
    ),
  };
}

/**
 * Writes the status `statusWrite` says, on top of `read`; on a conflict, again on top of a fresh
 * GET (bounded). Only the status is retried: the writes before it (a publish) already happened.
 * Resolves whether it wrote.
 */
export async function writeStatus(
  clusters: ClusterApi,
  read: ClusterResource,
  desired: ClusterStatus,
): Promise<boolean> {
  return retryOnConflict(async attempt => {
    const current =
      attempt === 1 ? read : await clusters.get(read.metadata.name);
    const next = statusWrite(current, scrubConditions(desired));
    if (!next) return false;
    try {
      await clusters.replaceStatus(next);
    } catch (e) {
      if (isNotFound(e)) return false;
      throw e;
    }
    return true;
  });
}

/** Creates a Cluster; when another made it meanwhile (another replica), reads that one. */
export async function createCluster(
  clusters: ClusterApi,
  cluster: ClusterResource,
): Promise<ClusterResource | undefined> {
  try {
    return await clusters.create(cluster);
  } catch (e) {
    if (!isAlreadyExists(e)) throw e;
    return clusters.get(cluster.metadata.name);
  }
}

/** What `executePlan` writes with. */
export interface ExecuteContext {
  api: ManagementApi;
  publisher: GitopsPublisher;
  logger: LoggerService;
  counters: PassCounters;
  /** Called before the publish: waiting for the gitops repo takes no pass slot. Idempotent. */
  freeSlot: () => void;
  /** Whether a write that lost a race may send the Cluster back to be read again. */
  canRequeue: boolean;
}

/**
 * Carries out one plan and decides nothing: the Secret actions in order, the publish (unless a
 * write that `stopsRegistration` was refused), then what `settleRegistered` makes of their outcome:
 * the files-hash annotation and the status. Resolves `requeue` when a write lost a race and the
 * Cluster should be read again (only while `canRequeue`; after that it counts as refused), else
 * whether the pass wrote nothing.
 */
export async function executePlan(
  observed: ObservedCluster,
  plan: ClusterPlan,
  context: ExecuteContext,
): Promise<'requeue' | { wroteNothing: boolean }> {
  const { api, logger, counters } = context;
  const name = observed.cluster.metadata.name;
  const outcome: ClusterOutcome = {};
  for (const action of plan.actions) {
    try {
      await applySecretAction(api.secrets, action);
      counters.secretWrites++;
    } catch (e) {
      if (context.canRequeue && lostRace(e)) return 'requeue';
      const message = (e as Error).message;
      logger.warn(`infrared: cluster ${name}: ${action.type}: ${message}`);
      if ('stopsRegistration' in action)
        outcome.refused ??= { action, message };
    }
  }
  if (plan.publish && !outcome.refused) {
    context.freeSlot();
    outcome.published = await publish(context, name, plan.publish);
    if ('result' in outcome.published) counters.published++;
  }

  const settled = settleRegistered(observed, plan, outcome);
  let cluster = observed.cluster;
  if (settled.annotations) {
    cluster = await api.clusters.patchMetadata(name, {
      annotations: settled.annotations,
    });
  }
  const statusWritten = await writeStatus(
    api.clusters,
    cluster,
    settled.status,
  );
  if (statusWritten) counters.statusWrites++;
  return {
    wroteNothing:
      !plan.actions.length &&
      !plan.publish &&
      !settled.annotations &&
      !statusWritten,
  };
}

async function publish(
  { publisher, logger }: ExecuteContext,
  name: string,
  step: PublishStep,
): Promise<NonNullable<ClusterOutcome['published']>> {
  try {
    const result = await publisher.publish(
      step.change,
      step.pending ? { pending: step.pending } : undefined,
    );
    const where = result.pullRequest?.url ?? result.url;
    logger.info(
      result.merged
        ? `infrared: cluster ${name} registered in the gitops repo (${where})`
        : `infrared: cluster ${name}: the gitops pull request is ${result.state} (${where})`,
    );
    return { result };
  } catch (e) {
    logger.warn(
      `infrared: registering cluster ${name} in the gitops repo failed: ${
        (e as Error).message
      }`,
    );
    return { error: e as Error };
  }
}

import { createHash } from 'node:crypto';
import {
  ClusterConditionTypes,
  describeArgoSecretManager,
  INFRARED_GROUP,
  type ClusterResource,
  type ClusterStatus,
  type ProvisionStatus,
  type SecretObject,
} from '@infrared-clusters/plugin-infrared-common';
import {
  setCondition,
  type ConditionInput,
} from '@infrared-clusters/infrared-kube';
import type { GitopsPublishResult } from '../../gitops';
import { findCondition } from './status';
import type {
  ClusterOutcome,
  ClusterPlan,
  ObservedCluster,
  PublishStep,
  RegistrationChange,
} from './types';

/** On a Cluster: the hash of the gitops files its registration last published. */
export const REGISTERED_FILES_ANNOTATION = `${INFRARED_GROUP}/registered-files`;

/** The hash of each files object seen (the reconciler passes the same object every pass). */
const hashes = new WeakMap<Record<string, string>, string>();

/** A stable digest of a set of files, to tell whether a registration is already published. */
export function filesHash(files: Record<string, string>): string {
  let hash = hashes.get(files);
  if (!hash) {
    hash = hashOf(files);
    hashes.set(files, hash);
  }
  return hash;
}

function hashOf(files: Record<string, string>): string {
  // Byte order, the same on every machine (localeCompare is not).
  const entries = Object.entries(files).sort(([a], [b]) => {
    if (a === b) return 0;
    return a < b ? -1 : 1;
  });
  return createHash('sha256')
    .update(JSON.stringify(entries))
    .digest('hex')
    .slice(0, 32);
}

/** A Registered condition for the Cluster's generation. */
const registeredCondition = (
  cluster: ClusterResource,
  status: 'True' | 'False',
  reason: string,
  message: string,
): ConditionInput => ({
  type: ClusterConditionTypes.Registered,
  status,
  reason,
  message,
  observedGeneration: cluster.metadata.generation,
});

/** The publish step for a change: checks the pull request an earlier pass left open, if any. */
function publishStep(
  cluster: ClusterResource,
  change: RegistrationChange,
  hash: string,
): PublishStep {
  const registered = findCondition(
    cluster.status,
    ClusterConditionTypes.Registered,
  );
  const pr = cluster.status?.pullRequest;
  const pending =
    registered?.reason === 'PullRequestOpen' && pr && !pr.merged
      ? {
          url: pr.url,
          ...(pr.number !== undefined ? { number: pr.number } : {}),
        }
      : undefined;
  const { gitopsPath, defaultBranch, ...gitopsChange } = change;
  return {
    change: gitopsChange,
    filesHash: hash,
    ...(pending ? { pending } : {}),
    gitopsPath,
    ...(defaultBranch ? { defaultBranch } : {}),
  };
}

/**
 * Registered for a Cluster that publishes nothing whatever its connection: a built cluster whose
 * destroy succeeded (`Destroyed`), the management cluster (its registry is the gitops repo's root
 * Application), one whose Argo CD Secret name another holds (`ArgoSecretConflict`).
 */
function registeredWithoutPublishing(
  cluster: ClusterResource,
  context: { foreign?: SecretObject; destroyed?: ProvisionStatus },
): ConditionInput | undefined {
  const { foreign, destroyed } = context;
  const name = cluster.metadata.name;
  if (destroyed) {
    return registeredCondition(
      cluster,
      'False',
      'Destroyed',
      `the OpenTofu destroy of generation ${destroyed.generation} (Job ${destroyed.job}) succeeded: the cluster is gone and Argo CD no longer has its cluster Secret. Remove the Cluster, or plan or apply it again`,
    );
  }
  if (cluster.spec.type === 'management') {
    return registeredCondition(
      cluster,
      'True',
      'ManagementCluster',
      `the management cluster's registry is the gitops repo's root Application registry-${name} (registry/clusters/${name}/registry.yaml): Infrared publishes nothing for it`,
    );
  }
  if (foreign) {
    return registeredCondition(
      cluster,
      'False',
      'ArgoSecretConflict',
      `${describeArgoSecretManager(
        foreign.metadata,
      )}: Infrared never writes an Argo CD Secret it did not make; remove that Secret, or register this cluster under another name`,
    );
  }
  return undefined;
}

/**
 * Registered before the writes, in this order: a built cluster whose destroy succeeded is
 * `Destroyed` (nothing is published); the management cluster is registered by the gitops repo's
 * root Application (nothing is published); another's Argo CD Secret blocks registration; a pull
 * request closed by a human is not reopened for the same generation; a blocked one is waited
 * on; otherwise publish once Connected (`settleRegistered` completes it from the answer).
 */
export function planRegistered(
  observed: ObservedCluster,
  context: {
    connected: ConditionInput;
    foreign?: SecretObject;
    destroyed?: ProvisionStatus;
  },
): { publish?: PublishStep; condition?: ConditionInput } {
  const { cluster } = observed;
  const { connected } = context;
  const generation = cluster.metadata.generation;
  const registered = findCondition(
    cluster.status,
    ClusterConditionTypes.Registered,
  );
  const condition = (status: 'True' | 'False', r: string, message: string) =>
    registeredCondition(cluster, status, r, message);
  const keepTrueElse = (c: ConditionInput) =>
    registered?.status === 'True' ? {} : { condition: c };

  const decided = registeredWithoutPublishing(cluster, context);
  if (decided) return { condition: decided };
  if (
    registered?.reason === 'PullRequestClosed' &&
    registered.observedGeneration === generation
  ) {
    return {};
  }

  const change =
    'error' in observed.registration ? undefined : observed.registration;
  const hash = change && filesHash(change.files);
  const upToDate =
    registered?.status === 'True' &&
    registered.reason !== 'ManagementCluster' &&
    registered.observedGeneration === generation &&
    (!hash ||
      cluster.metadata.annotations?.[REGISTERED_FILES_ANNOTATION] === hash);
  if (upToDate) return {};
  if (connected.status !== 'True') {
    return keepTrueElse(
      condition(
        'False',
        'WaitingForConnection',
        `registration waits for Connected: ${connected.message}`,
      ),
    );
  }
  if (change && hash) return { publish: publishStep(cluster, change, hash) };
  return keepTrueElse(
    condition(
      'False',
      'PublishFailed',
      (observed.registration as { error: string }).error,
    ),
  );
}

/**
 * The change in words a user can act on: the pull request and the commit (with its branch once
 * merged), and the URL only when it is on the web; never a local repository's file path.
 */
function describeChange(pr: NonNullable<ClusterStatus['pullRequest']>) {
  const parts: string[] = [];
  if (pr.number !== undefined) parts.push(`pull request #${pr.number}`);
  if (pr.commit)
    parts.push(
      `commit ${pr.commit.slice(0, 7)}${pr.branch ? ` on ${pr.branch}` : ''}`,
    );
  const text = parts.join(', ');
  if (/^https?:\/\//i.test(pr.url))
    return text ? `${text} (${pr.url})` : pr.url;
  return text || 'a change in the local gitops repository';
}

/** What the executor writes to the Cluster last, once the plan's writes are done. */
export interface ClusterSettlement {
  /** The status to have (written only where it differs: `statusWrite`). */
  status: ClusterStatus;
  /** Annotations to merge into the Cluster's metadata first. */
  annotations?: Record<string, string>;
}

/**
 * Registered after the writes, from what they did: a refused Argo CD Secret write is
 * `ArgoSecretFailed` with the API server's words (unless Registered already is True: a failed
 * write keeps an earlier registration); a publish completes Registered from the publisher's
 * answer, and a merged change records the hash of its files on the Cluster; otherwise the
 * planned status.
 */
export function settleRegistered(
  observed: ObservedCluster,
  plan: ClusterPlan,
  outcome: ClusterOutcome,
): ClusterSettlement {
  const { cluster, now } = observed;
  const { refused, published } = outcome;
  if (refused) {
    const planned = findCondition(
      plan.status,
      ClusterConditionTypes.Registered,
    );
    if (planned?.status === 'True') return { status: plan.status };
    const failed = registeredCondition(
      cluster,
      'False',
      'ArgoSecretFailed',
      `the Argo CD cluster Secret could not be written: ${refused.message}`,
    );
    return {
      status: {
        ...plan.status,
        conditions: setCondition(plan.status.conditions, failed, now),
      },
    };
  }
  if (!published || !plan.publish) return { status: plan.status };
  const { gitopsPath, defaultBranch, filesHash: hash } = plan.publish;
  const merged = 'result' in published && published.result.merged;
  return {
    status: completeRegistration(
      plan.status,
      cluster,
      published,
      now,
      gitopsPath,
      defaultBranch,
    ),
    ...(merged ? { annotations: { [REGISTERED_FILES_ANNOTATION]: hash } } : {}),
  };
}

/** Registered after the publisher answered. */
function completeRegistration(
  status: ClusterStatus,
  cluster: ClusterResource,
  outcome: { result: GitopsPublishResult } | { error: Error },
  now: string,
  /** The app-of-apps file the change adds: what the Clusters page shows and links. */
  gitopsPath: string,
  /** The gitops repository's default branch: recorded with a merged change, where its commit is. */
  defaultBranch?: string,
): ClusterStatus {
  const next: ClusterStatus = { ...status };
  const condition = (s: 'True' | 'False', reason: string, message: string) =>
    registeredCondition(cluster, s, reason, message);
  let registered: ConditionInput;
  if ('error' in outcome) {
    registered = condition('False', 'PublishFailed', outcome.error.message);
  } else {
    const { result } = outcome;
    next.pullRequest = {
      url: result.pullRequest?.url ?? result.url,
      ...(result.pullRequest?.number !== undefined
        ? { number: result.pullRequest.number }
        : {}),
      commit: result.commit,
      merged: result.merged,
      ...(result.merged && defaultBranch ? { branch: defaultBranch } : {}),
    };
    const url = describeChange(next.pullRequest);
    if (result.merged) {
      next.gitopsPath = gitopsPath;
      registered = condition(
        'True',
        'Registered',
        `the gitops repo registers the cluster: ${url}`,
      );
    } else if (result.state === 'closed') {
      registered = condition(
        'False',
        'PullRequestClosed',
        `the pull request was closed without merging: ${url}; Infrared opens a new one when the Cluster's spec changes`,
      );
    } else {
      registered = condition(
        'False',
        'PullRequestOpen',
        `waiting for the pull request to be merged (the repository requires it, or auto-merge is off): ${url}`,
      );
    }
  }
  next.conditions = setCondition(status.conditions, registered, now);
  return next;
}

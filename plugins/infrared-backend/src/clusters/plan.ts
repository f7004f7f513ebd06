import { createHash } from 'node:crypto';
import {
  argoClusterSecret,
  ARGOCD_NAMESPACE,
  argoSecretName,
  CLUSTER_KIND,
  CLUSTER_NAME_LABEL,
  ClusterConditionTypes,
  describeArgoSecretManager,
  IN_CLUSTER_SERVER,
  INFRARED_GROUP,
  MANAGED_BY_INFRARED,
  MANAGED_BY_LABEL,
  secretStrings,
  type ClusterCondition,
  type ClusterResource,
  type ClusterStatus,
  type ArgoConnection,
  type OwnerReference,
  type SecretObject,
} from '@internal/plugin-infrared-common';
import {
  controllerReferenceTo,
  setCondition,
  type ConditionInput,
  type ProbeResult,
} from '@internal/plugin-infrared-node';
import type {
  GitopsChange,
  GitopsPublishResult,
  GitopsPullRequest,
} from '../gitops';
import type { ClusterConnection } from './connection';

/** On a Cluster: the hash of the gitops files its registration last published. */
export const REGISTERED_FILES_ANNOTATION = `${INFRARED_GROUP}/registered-files`;

/** Everything the planner needs about one Cluster, read beforehand by the executor. */
export interface ObservedCluster {
  cluster: ClusterResource;
  connection: ClusterConnection;
  /** The Secret spec.connection.kubeconfigSecretRef names, when it exists. */
  kubeconfigSecret?: SecretObject;
  /** `cluster-<name>` in namespace argocd, when it exists. */
  argoSecret?: SecretObject;
  /** The probe's answer; absent when the connection is unusable. */
  probe?: ProbeResult;
  /**
   * The gitops change that registers the cluster (files from `registrationFiles`), or why it
   * could not be built (the publisher could not describe the repo).
   */
  registration: GitopsChange | { error: string };
  /** ISO time used for condition transitions. */
  now: string;
}

export type SecretAction =
  | {
      type: 'adoptKubeconfigSecret';
      namespace: string;
      name: string;
      labels: Record<string, string>;
      ownerReferences: OwnerReference[];
      resourceVersion?: string;
    }
  | { type: 'createArgoSecret'; secret: SecretObject }
  | { type: 'replaceArgoSecret'; secret: SecretObject }
  | { type: 'deleteArgoSecret'; namespace: string; name: string; uid?: string };

export interface ClusterPlan {
  /** Secret writes, in order. */
  actions: SecretAction[];
  /** The registration to publish after the actions; the executor completes Registered from its outcome. */
  publish?: {
    change: GitopsChange;
    filesHash: string;
    /** The pull request an earlier pass left open: checked, not rebuilt. */
    pending?: GitopsPullRequest;
  };
  /** The status to have (Registered as it was when `publish` is set). */
  status: ClusterStatus;
  /** Set when the Cluster is left alone, with the reason. */
  skipped?: string;
}

/** The status fields this reconciler owns; the rest (provision, detected ...) belong to others. */
const OWNED_FIELDS = [
  'kubernetesVersion',
  'nodes',
  'argoSecret',
  'argoServer',
  'gitopsPath',
  'pullRequest',
  'observedGeneration',
] as const;
const OWNED_CONDITIONS: string[] = [
  ClusterConditionTypes.Connected,
  ClusterConditionTypes.Registered,
];

/** A stable digest of a set of files, to tell whether a registration is already published. */
export function filesHash(files: Record<string, string>): string {
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

const isInfraredCluster = (ref: { apiVersion: string; kind: string }) =>
  ref.kind === CLUSTER_KIND && ref.apiVersion.startsWith(`${INFRARED_GROUP}/`);

/**
 * The owner references a dependent should have: the Cluster's, added once; references to an
 * earlier Cluster of the same name (deleted and made again) dropped; others kept. When another
 * owner already is the controller, ours is added as a plain owner.
 */
export function ownerReferencesFor(
  existing: readonly OwnerReference[] | undefined,
  cluster: ClusterResource,
): OwnerReference[] {
  const ours = controllerReferenceTo(cluster);
  const kept = (existing ?? []).filter(
    r =>
      !(
        isInfraredCluster(r) &&
        r.name === cluster.metadata.name &&
        r.uid !== ours.uid
      ),
  );
  if (kept.some(r => r.uid === ours.uid)) return kept;
  const otherController = kept.some(r => r.controller);
  return [...kept, otherController ? { ...ours, controller: false } : ours];
}

function sameOwners(
  a: readonly OwnerReference[] | undefined,
  b: readonly OwnerReference[],
): boolean {
  const key = (r: OwnerReference) =>
    `${r.uid}|${r.name}|${r.kind}|${!!r.controller}`;
  const left = (a ?? []).map(key).sort();
  const right = b.map(key).sort();
  return left.length === right.length && left.every((k, i) => k === right[i]);
}

const labelsInclude = (
  labels: Record<string, string> | undefined,
  wanted: Record<string, string>,
) => Object.entries(wanted).every(([k, v]) => labels?.[k] === v);

/** The labels every Secret Infrared keeps for a Cluster carries (the executor LISTs by them). */
export function dependentLabels(clusterName: string): Record<string, string> {
  return {
    [MANAGED_BY_LABEL]: MANAGED_BY_INFRARED,
    [CLUSTER_NAME_LABEL]: clusterName,
  };
}

function planKubeconfigSecret(observed: ObservedCluster): SecretAction[] {
  const { cluster, kubeconfigSecret: secret } = observed;
  if (!secret) return [];
  const owners = ownerReferencesFor(secret.metadata.ownerReferences, cluster);
  const labels = dependentLabels(cluster.metadata.name);
  if (
    sameOwners(secret.metadata.ownerReferences, owners) &&
    labelsInclude(secret.metadata.labels, labels)
  ) {
    return [];
  }
  return [
    {
      type: 'adoptKubeconfigSecret',
      namespace: secret.metadata.namespace ?? '',
      name: secret.metadata.name,
      labels,
      ownerReferences: owners,
      resourceVersion: secret.metadata.resourceVersion,
    },
  ];
}

/** Whether Infrared wrote this Argo CD Secret for this Cluster (owner or labels say so). */
export function isOurArgoSecret(
  secret: SecretObject,
  cluster: ClusterResource,
): boolean {
  return (
    (secret.metadata.ownerReferences ?? []).some(
      r => r.uid === cluster.metadata.uid,
    ) ||
    labelsInclude(
      secret.metadata.labels,
      dependentLabels(cluster.metadata.name),
    )
  );
}

function planArgoSecret(
  observed: ObservedCluster,
  connected: boolean,
): SecretAction[] {
  const { cluster, connection, argoSecret: current } = observed;
  if (connection.kind === 'inCluster') {
    // Argo CD reaches its own cluster by its built-in destination: a Secret of ours is stale.
    if (current && isOurArgoSecret(current, cluster)) {
      return [
        {
          type: 'deleteArgoSecret',
          namespace: current.metadata.namespace ?? ARGOCD_NAMESPACE,
          name: current.metadata.name,
          uid: current.metadata.uid,
        },
      ];
    }
    return [];
  }
  // Written only for a cluster that answered with this credential; an unreachable or refused
  // one keeps what Argo CD has.
  if (connection.kind !== 'kubeconfig' || !connected) return [];
  // Another's Secret (by hand, the registrar, another tool) is never written: seed 003.
  if (current && !isOurArgoSecret(current, cluster)) return [];
  const desired = desiredArgoSecret(cluster, connection.argo);
  if (!current) return [{ type: 'createArgoSecret', secret: desired }];
  const replacement = argoSecretReplacement(current, desired, cluster);
  return replacement
    ? [{ type: 'replaceArgoSecret', secret: replacement }]
    : [];
}

/**
 * The Argo CD cluster Secret a kubeconfig Cluster should have: the very server and config the
 * probe connected with (`argoConnectionFor`: spec.server when set, else the kubeconfig's).
 */
export function desiredArgoSecret(
  cluster: ClusterResource,
  argo: ArgoConnection,
): SecretObject {
  const name = cluster.metadata.name;
  return argoClusterSecret({
    clusterName: name,
    server: argo.server,
    argoConfig: argo.config,
    labels: { [CLUSTER_NAME_LABEL]: name },
    ownerReferences: [controllerReferenceTo(cluster)],
  });
}

/**
 * The write that turns `current` into `desired`, or undefined when it already is right (same
 * name, server and config bytes, our labels, the Cluster as owner). What others added
 * (annotations, extra labels, extra keys such as `namespaces` or `project`) is kept.
 */
export function argoSecretReplacement(
  current: SecretObject,
  desired: SecretObject,
  cluster: ClusterResource,
): SecretObject | undefined {
  const have = secretStrings(current);
  const want = desired.stringData!;
  const owners = ownerReferencesFor(current.metadata.ownerReferences, cluster);
  const dataRight = Object.entries(want).every(([k, v]) => have[k] === v);
  const labelsRight = labelsInclude(
    current.metadata.labels,
    desired.metadata.labels!,
  );
  if (
    dataRight &&
    labelsRight &&
    sameOwners(current.metadata.ownerReferences, owners)
  ) {
    return undefined;
  }
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: {
      name: current.metadata.name,
      namespace: current.metadata.namespace ?? ARGOCD_NAMESPACE,
      resourceVersion: current.metadata.resourceVersion,
      labels: { ...current.metadata.labels, ...desired.metadata.labels },
      ...(current.metadata.annotations
        ? { annotations: current.metadata.annotations }
        : {}),
      ownerReferences: owners,
    },
    type: current.type || 'Opaque',
    data: { ...current.data },
    stringData: want,
  };
}

function connectedCondition(observed: ObservedCluster): ConditionInput {
  const { connection, probe, cluster } = observed;
  const base = {
    type: ClusterConditionTypes.Connected,
    observedGeneration: cluster.metadata.generation,
  };
  if (connection.kind === 'unusable') {
    return {
      ...base,
      status: 'False',
      reason: connection.reason,
      message: connection.message,
    };
  }
  if (!probe) {
    return {
      ...base,
      status: 'Unknown',
      reason: 'NotProbed',
      message: 'the API server has not been reached yet',
    };
  }
  if (!probe.ok) {
    return {
      ...base,
      status: 'False',
      reason: probe.reason,
      message: probe.message,
    };
  }
  const how =
    connection.kind === 'inCluster'
      ? "with the backend's own service account"
      : `at ${connection.argo.server} as Argo CD will connect`;
  return {
    ...base,
    status: 'True',
    reason: 'Connected',
    message: `reached Kubernetes ${probe.kubernetesVersion} ${how}: ${
      probe.nodes
    } node${probe.nodes === 1 ? '' : 's'}`,
  };
}

const findCondition = (status: ClusterStatus | undefined, type: string) =>
  status?.conditions?.find(c => c.type === type);

/**
 * Plans one Cluster, level-triggered: from what is (the Cluster, its Secrets, the probe) to the
 * writes that make it what it should be. Pure; nothing here reads or writes anything.
 *
 * 1. Connected from the probe (or why the connection can't be tried); the kubeconfig Secret gets
 *    the Cluster as owner.
 * 2. The Argo CD Secret `cluster-<name>` for a kubeconfig cluster that answered: created, restored,
 *    rewritten on rotation, left alone when right. None for inCluster (and a stale one removed).
 * 3. Registered: waits for Connected; publishes when not yet registered for this generation and files.
 */
export function planClusterReconcile(observed: ObservedCluster): ClusterPlan {
  const { cluster, connection, now } = observed;
  const current = cluster.status ?? {};
  if (cluster.metadata.deletionTimestamp) {
    return { actions: [], status: current, skipped: 'being deleted' };
  }
  const name = cluster.metadata.name;
  const generation = cluster.metadata.generation;

  const connected = connectedCondition(observed);
  const isConnected = connected.status === 'True';
  let conditions = setCondition(current.conditions, connected, now);
  const status: ClusterStatus = { ...current };
  if (observed.probe?.ok) {
    status.kubernetesVersion = observed.probe.kubernetesVersion;
    status.nodes = observed.probe.nodes;
  }

  const actions = [
    ...planKubeconfigSecret(observed),
    ...planArgoSecret(observed, isConnected),
  ];

  const foreign =
    connection.kind !== 'inCluster' &&
    observed.argoSecret &&
    !isOurArgoSecret(observed.argoSecret, cluster)
      ? observed.argoSecret
      : undefined;
  if (connection.kind === 'inCluster') {
    status.argoServer = IN_CLUSTER_SERVER;
    delete status.argoSecret;
  } else {
    if (connection.kind === 'kubeconfig') {
      status.argoServer = connection.argo.server;
    }
    const written = actions.some(
      a => a.type === 'createArgoSecret' || a.type === 'replaceArgoSecret',
    );
    const ours = observed.argoSecret && !foreign;
    if (written || (ours && connection.kind === 'kubeconfig'))
      status.argoSecret = argoSecretName(name);
    else if (!ours) delete status.argoSecret;
  }

  const registration = planRegistration(observed, {
    connected,
    foreign,
  });
  if (registration.condition)
    conditions = setCondition(conditions, registration.condition, now);
  if (cluster.spec.type === 'management') {
    // Registered by the gitops template's root Application, not by a file of ours.
    delete status.gitopsPath;
    delete status.pullRequest;
  }
  status.conditions = conditions;
  if (generation !== undefined) status.observedGeneration = generation;
  return { actions, publish: registration.publish, status };
}

/**
 * Registered, in this order: the management cluster is registered by the gitops repo's root
 * Application (nothing is published); another's Argo CD Secret blocks registration; a pull
 * request closed by a human is not reopened for the same generation; a blocked one is waited
 * on; otherwise publish once Connected.
 */
function planRegistration(
  observed: ObservedCluster,
  context: { connected: ConditionInput; foreign?: SecretObject },
): { publish?: ClusterPlan['publish']; condition?: ConditionInput } {
  const { cluster } = observed;
  const { connected, foreign } = context;
  const name = cluster.metadata.name;
  const generation = cluster.metadata.generation;
  const current = cluster.status;
  const registered = findCondition(current, ClusterConditionTypes.Registered);
  const condition = (
    status: 'True' | 'False',
    reason: string,
    message: string,
  ): ConditionInput => ({
    type: ClusterConditionTypes.Registered,
    status,
    reason,
    message,
    observedGeneration: generation,
  });

  if (cluster.spec.type === 'management') {
    return {
      condition: condition(
        'True',
        'ManagementCluster',
        `the management cluster's registry is the gitops repo's root Application registry-${name} (registry/clusters/${name}/registry.yaml): Infrared publishes nothing for it`,
      ),
    };
  }
  if (foreign) {
    return {
      condition: condition(
        'False',
        'ArgoSecretConflict',
        `${describeArgoSecretManager(
          foreign.metadata,
        )}: Infrared never writes an Argo CD Secret it did not make; remove that Secret, or register this cluster under another name`,
      ),
    };
  }
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
    return registered?.status === 'True'
      ? {}
      : {
          condition: condition(
            'False',
            'WaitingForConnection',
            `registration waits for Connected: ${connected.message}`,
          ),
        };
  }
  if (change && hash) {
    const pr = current?.pullRequest;
    const pending =
      registered?.reason === 'PullRequestOpen' && pr && !pr.merged
        ? {
            url: pr.url,
            ...(pr.number !== undefined ? { number: pr.number } : {}),
          }
        : undefined;
    return {
      publish: { change, filesHash: hash, ...(pending ? { pending } : {}) },
    };
  }
  return registered?.status === 'True'
    ? {}
    : {
        condition: condition(
          'False',
          'PublishFailed',
          (observed.registration as { error: string }).error,
        ),
      };
}

/** Registered after the publisher answered. */
export function completeRegistration(
  status: ClusterStatus,
  cluster: ClusterResource,
  outcome: { result: GitopsPublishResult } | { error: Error },
  now: string,
  /** The app-of-apps file the change adds: what the Clusters page shows and links. */
  gitopsPath: string,
  /** The gitops repository's default branch: recorded with a merged change, where its commit is. */
  defaultBranch?: string,
): ClusterStatus {
  const generation = cluster.metadata.generation;
  const next: ClusterStatus = { ...status };
  let condition: ConditionInput;
  if ('error' in outcome) {
    condition = {
      type: ClusterConditionTypes.Registered,
      status: 'False',
      reason: 'PublishFailed',
      message: outcome.error.message,
      observedGeneration: generation,
    };
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
    if (result.merged) {
      next.gitopsPath = gitopsPath;
      condition = {
        type: ClusterConditionTypes.Registered,
        status: 'True',
        reason: 'Registered',
        message: `the gitops repo registers the cluster: ${next.pullRequest.url}`,
        observedGeneration: generation,
      };
    } else if (result.state === 'closed') {
      condition = {
        type: ClusterConditionTypes.Registered,
        status: 'False',
        reason: 'PullRequestClosed',
        message: `the pull request was closed without merging: ${next.pullRequest.url}; Infrared opens a new one when the Cluster's spec changes`,
        observedGeneration: generation,
      };
    } else {
      condition = {
        type: ClusterConditionTypes.Registered,
        status: 'False',
        reason: 'PullRequestOpen',
        message: `waiting for the pull request to be merged (the repository requires it, or auto-merge is off): ${next.pullRequest.url}`,
        observedGeneration: generation,
      };
    }
  }
  next.conditions = setCondition(status.conditions, condition, now);
  return next;
}

/**
 * Registered False because a Secret write that registration depends on failed. A failed write
 * keeps an earlier True; another's Secret (ArgoSecretConflict) never does.
 */
export function registrationBlocked(
  status: ClusterStatus,
  cluster: ClusterResource,
  blocked: { reason: string; message: string },
  now: string,
): ClusterStatus {
  if (
    blocked.reason !== 'ArgoSecretConflict' &&
    findCondition(status, ClusterConditionTypes.Registered)?.status === 'True'
  )
    return status;
  const next: ClusterStatus = {
    ...status,
    conditions: setCondition(
      status.conditions,
      {
        type: ClusterConditionTypes.Registered,
        status: 'False',
        reason: blocked.reason,
        message: blocked.message,
        observedGeneration: cluster.metadata.generation,
      },
      now,
    ),
  };
  if (blocked.reason === 'ArgoSecretConflict') delete next.argoSecret;
  return next;
}

/**
 * `base` with the fields this reconciler owns taken from `desired`; everything else in `base`
 * (fields and conditions of other reconcilers) kept. Used for the first write and after a conflict.
 */
export function mergeOwnedStatus(
  base: ClusterStatus | undefined,
  desired: ClusterStatus,
): ClusterStatus {
  const out: ClusterStatus = { ...base };
  for (const key of OWNED_FIELDS) {
    if (desired[key] === undefined) delete out[key];
    else (out as any)[key] = desired[key];
  }
  const conditions: ClusterCondition[] = [...(base?.conditions ?? [])];
  for (const c of desired.conditions ?? []) {
    if (!OWNED_CONDITIONS.includes(c.type)) continue;
    const i = conditions.findIndex(x => x.type === c.type);
    if (i >= 0) conditions[i] = c;
    else conditions.push(c);
  }
  if (conditions.length) out.conditions = conditions;
  return out;
}

function canonical(value: unknown): string {
  return JSON.stringify(value, (_k, v) =>
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

/** Whether writing `desired` would change the stored status. */
export function statusChanged(
  current: ClusterStatus | undefined,
  desired: ClusterStatus,
): boolean {
  return (
    canonical(mergeOwnedStatus(current, desired)) !== canonical(current ?? {})
  );
}

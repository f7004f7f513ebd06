import type {
  ClusterResource,
  ClusterStatus,
  OwnerReference,
  SecretObject,
} from '@infrared-clusters/plugin-infrared-common';
import type { ProbeResult } from '@infrared-clusters/infrared-kube';
import type {
  GitopsChange,
  GitopsPublishResult,
  GitopsPullRequest,
} from '../../gitops';
import type { ClusterConnection } from './connection';

/** The gitops change that registers one cluster, with what Registered records once it is merged. */
export interface RegistrationChange extends GitopsChange {
  /** The app-of-apps file the change adds: what the Clusters page shows and links. */
  gitopsPath: string;
  /** The gitops repository's default branch, where a merged change's commit is. */
  defaultBranch?: string;
}

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
   * The gitops change that registers the cluster (`registrationChange` in ../observe.ts), or why
   * it could not be built (the publisher could not describe the repo).
   */
  registration: RegistrationChange | { error: string };
  /** ISO time used for condition transitions. */
  now: string;
}

/**
 * A Secret write. One with `stopsRegistration` that is refused (not a lost race: the executor
 * requeues those) stops the registration: nothing is published after it, and `settleRegistered`
 * says why in Registered. A refused adoption is only logged.
 */
export type SecretAction =
  | {
      type: 'adoptKubeconfigSecret';
      namespace: string;
      name: string;
      labels: Record<string, string>;
      ownerReferences: OwnerReference[];
      resourceVersion?: string;
    }
  | { type: 'createArgoSecret'; secret: SecretObject; stopsRegistration: true }
  | { type: 'replaceArgoSecret'; secret: SecretObject; stopsRegistration: true }
  | {
      type: 'deleteArgoSecret';
      namespace: string;
      name: string;
      uid?: string;
      stopsRegistration: true;
    };

/** The registration to publish after the Secret writes. */
export interface PublishStep {
  change: GitopsChange;
  filesHash: string;
  /** The pull request an earlier pass left open: checked, not rebuilt. */
  pending?: GitopsPullRequest;
  /** Recorded in the status once the change is merged. */
  gitopsPath: string;
  defaultBranch?: string;
}

export interface ClusterPlan {
  /** Secret writes, in order. */
  actions: SecretAction[];
  /** The registration to publish after the actions; `settleRegistered` completes Registered from its outcome. */
  publish?: PublishStep;
  /** The status to have (Registered as it was when `publish` is set). */
  status: ClusterStatus;
  /** Set when the Cluster is left alone, with the reason. */
  skipped?: string;
}

/** What happened to a plan's writes, as the executor saw it. */
export interface ClusterOutcome {
  /** The first refused write that `stopsRegistration`, with the API server's message. */
  refused?: { action: SecretAction; message: string };
  /** The publisher's answer, when the plan published. */
  published?: { result: GitopsPublishResult } | { error: Error };
}

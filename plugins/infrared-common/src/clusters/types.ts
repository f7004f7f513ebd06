/** TypeScript shapes of the Cluster custom resource (deploy/crds/clusters.yaml). */
import type {
  ClusterTemplateRef,
  ProvisionSpec,
  ProvisionStatus,
} from '../provisioning/types';

/** @public */
export const CLUSTER_TYPES = ['management', 'workload'] as const;
/** @public */
export type ClusterType = (typeof CLUSTER_TYPES)[number];

/** @public */
export const CLUSTER_FLAVORS = ['k3s', 'eks'] as const;
/** @public */
export type ClusterFlavor = (typeof CLUSTER_FLAVORS)[number];

/** @public */
export const CLUSTER_PROVIDERS = ['aws', 'gcp', 'linode', 'local'] as const;
/** @public */
export type ClusterProvider = (typeof CLUSTER_PROVIDERS)[number];

/** @public */
export interface SecretKeyRef {
  name: string;
  key: string;
}

/** @public */
export interface ClusterConnection {
  inCluster?: boolean;
  /** A Secret in namespace `infrared`. */
  kubeconfigSecretRef?: SecretKeyRef;
  /**
   * A Secret in namespace `infrared` holding a read-only kubeconfig (key default `kubeconfig`): the
   * Kubernetes plugin reaches the cluster with it instead of the kubeconfig Argo CD uses. For an
   * inCluster Cluster it is the only credential the Kubernetes plugin ever gets.
   */
  viewerKubeconfigSecretRef?: SecretKeyRef;
}

/** @public */
export interface ClusterSpec {
  type: ClusterType;
  flavor?: ClusterFlavor;
  provider?: ClusterProvider;
  region?: string;
  /** The API server address Argo CD uses when it differs from the kubeconfig's. */
  server?: string;
  connection?: ClusterConnection;
  template?: ClusterTemplateRef;
  provision?: ProvisionSpec;
}

/** @public */
export const CONDITION_STATUSES = ['True', 'False', 'Unknown'] as const;
/** @public */
export type ConditionStatus = (typeof CONDITION_STATUSES)[number];

/**
 * A condition after the Kubernetes conventions (metav1.Condition).
 *
 * @public
 */
export interface ClusterCondition {
  type: string;
  status: ConditionStatus;
  reason: string;
  message: string;
  lastTransitionTime: string;
  observedGeneration?: number;
}

/** @public */
export interface PullRequestRef {
  url: string;
  number?: number;
  commit?: string;
  merged?: boolean;
  /** The branch holding `commit` once merged: the gitops repository's default branch. */
  branch?: string;
}

/** @public */
export interface ClusterStatus {
  conditions?: ClusterCondition[];
  kubernetesVersion?: string;
  nodes?: number;
  argoSecret?: string;
  argoServer?: string;
  gitopsPath?: string;
  pullRequest?: PullRequestRef;
  /** The last OpenTofu Job (provisioning owns it). */
  provision?: ProvisionStatus;
  detected?: boolean;
  observedGeneration?: number;
}

/** @public */
export interface ObjectMeta {
  name: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: string;
  deletionTimestamp?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  ownerReferences?: OwnerReference[];
}

/** @public */
export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

/** @public */
export interface ClusterResource {
  apiVersion: string;
  kind: 'Cluster';
  metadata: ObjectMeta;
  spec: ClusterSpec;
  status?: ClusterStatus;
}

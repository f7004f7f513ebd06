/** TypeScript shapes of the Cluster custom resource (deploy/crds/clusters.yaml). */
import type {
  ClusterTemplateRef,
  ProvisionSpec,
  ProvisionStatus,
} from '../provisioning/types';

export const CLUSTER_TYPES = ['management', 'workload'] as const;
export type ClusterType = (typeof CLUSTER_TYPES)[number];

export const CLUSTER_FLAVORS = ['k3s', 'eks'] as const;
export type ClusterFlavor = (typeof CLUSTER_FLAVORS)[number];

export const CLUSTER_PROVIDERS = ['aws', 'gcp', 'linode', 'local'] as const;
export type ClusterProvider = (typeof CLUSTER_PROVIDERS)[number];

export interface SecretKeyRef {
  name: string;
  key: string;
}

export interface ClusterConnection {
  inCluster?: boolean;
  /** A Secret in namespace `infrared`. */
  kubeconfigSecretRef?: SecretKeyRef;
}

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

export const CONDITION_STATUSES = ['True', 'False', 'Unknown'] as const;
export type ConditionStatus = (typeof CONDITION_STATUSES)[number];

/** A condition after the Kubernetes conventions (metav1.Condition). */
export interface ClusterCondition {
  type: string;
  status: ConditionStatus;
  reason: string;
  message: string;
  lastTransitionTime: string;
  observedGeneration?: number;
}

export interface PullRequestRef {
  url: string;
  number?: number;
  commit?: string;
  merged?: boolean;
  /** The branch holding `commit` once merged: the gitops repository's default branch. */
  branch?: string;
}

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

export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

export interface ClusterResource {
  apiVersion: string;
  kind: 'Cluster';
  metadata: ObjectMeta;
  spec: ClusterSpec;
  status?: ClusterStatus;
}

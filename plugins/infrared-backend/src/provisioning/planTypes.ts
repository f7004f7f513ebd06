import type {
  ClusterResource,
  ClusterTemplate,
  ProvisioningAllowList,
  ProvisionStatus,
} from '@infrared-clusters/plugin-infrared-common';
import type {
  ObservedJob,
  ObservedPod,
  TofuJob,
} from '@infrared-clusters/infrared-kube';

/** What the planner knows beyond the Cluster: the configuration of the pass. */
export interface ProvisioningContext {
  templates: readonly ClusterTemplate[];
  /** The module output holding the built cluster's kubeconfig; undefined: no auto-registration. */
  kubeconfigOutput?: string;
  /** The OpenTofu Jobs' namespace (state, Leases, credentials); default infrared-tofu. */
  namespace?: string;
  /** What provision.image and provision.source may name; unchecked when absent. */
  allow?: ProvisioningAllowList;
  now: string;
}

/** What the executor read for one Cluster at the planner's request. */
export interface ProvisioningReads {
  /** The log of a finished plan Job's Pod (null: no log could be read). */
  log?: string | null;
  /** The credentials Secret's values, to redact (null: the Secret does not exist). */
  credentials?: string[] | null;
  /** The outputs of the state Secret (null: no state Secret). */
  outputs?: Record<string, { value: unknown }> | null;
}

export type ProvisioningRead =
  | { type: 'log'; namespace: string; pod: string; container: string }
  | { type: 'credentials'; namespace: string; secret: string }
  | { type: 'outputs'; namespace: string; secret: string };

export type ProvisioningAction =
  | { type: 'createJob'; job: TofuJob }
  | {
      /** Replace the status (precondition: the Cluster's resourceVersion as listed). */
      type: 'writeStatus';
      cluster: ClusterResource;
    }
  | {
      /** Auto-registration: the kubeconfig Secret, then spec.connection naming it. */
      type: 'register';
      cluster: ClusterResource;
      secretName: string;
      kubeconfig: string;
    };

export type ClusterPlan =
  | { reads: ProvisioningRead[] }
  | { actions: ProvisioningAction[]; desired?: ProvisionStatus };

/** The Jobs and Pods of the pass, indexed. */
export interface ObservedRuns {
  jobsByCluster: Map<string, ObservedJob[]>;
  podsByJob: Map<string, ObservedPod>;
}

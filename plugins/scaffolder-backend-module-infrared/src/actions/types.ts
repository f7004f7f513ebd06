import type {
  ClusterFlavor,
  ClusterProvider,
  ProvisionPhase,
} from '@infrared-clusters/plugin-infrared-common';

/*
 * The actions' inputs and outputs, named: the schema functions describe them to the scaffolder,
 * these state them to TypeScript (and the API report), in one stable order. Type literals, not
 * interfaces: an action's input must be a JsonObject, which an interface is not.
 */

/**
 * The input of `infrared:cluster:register`.
 *
 * @public
 */
export type RegisterClusterActionInput = {
  name: string;
  flavor?: ClusterFlavor;
  provider?: ClusterProvider;
  region?: string;
  kubeconfigSecret?: string;
  inCluster?: boolean;
};

/**
 * The output of `infrared:cluster:register`.
 *
 * @public
 */
export type RegisterClusterActionOutput = {
  name: string;
  connection: string;
};

/**
 * The input of `infrared:cluster:build`.
 *
 * @public
 */
export type BuildClusterActionInput = {
  name: string;
  template: string;
  flavor?: ClusterFlavor;
  provider?: ClusterProvider;
  region?: string;
  variables?: Record<string, string>;
  credentialsSecret?: string;
};

/**
 * The output of `infrared:cluster:build`.
 *
 * @public
 */
export type BuildClusterActionOutput = {
  name: string;
  template: string;
};

/**
 * The input of `infrared:cluster:wait`.
 *
 * @public
 */
export type WaitForClusterActionInput = {
  name: string;
  provisionPhase?: ProvisionPhase;
  timeoutSeconds?: number;
};

/**
 * The output of `infrared:cluster:wait`.
 *
 * @public
 */
export type WaitForClusterActionOutput = {
  argoServer: string;
  gitopsPath: string;
  provisionPhase?: string;
};

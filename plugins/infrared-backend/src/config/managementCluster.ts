import type { Config } from '@backstage/config';
import { DEFAULT_MANAGEMENT_CLUSTER_NAME } from '@infrared-clusters/plugin-infrared-common';
import path from 'node:path';
import { findRepoRoot } from './repoRoot';

/** `infrared.managementCluster`: the cluster the backend and Argo CD run on. */
export interface ManagementClusterConfig {
  /** `infrared.managementCluster.name`, default infrared-mgmt: the name of its Cluster resource. */
  name: string;
  /** `infrared.managementCluster.kubeconfigPath`, absolute; undefined means in-cluster config. */
  kubeconfigPath?: string;
}

/** Reads `infrared.managementCluster`; a relative kubeconfigPath is resolved against `rootDir`. */
export function readManagementClusterConfig(
  config: Config,
  rootDir: string = findRepoRoot(),
): ManagementClusterConfig {
  const kubeconfigPath = config.getOptionalString(
    'infrared.managementCluster.kubeconfigPath',
  );
  return {
    name:
      config.getOptionalString('infrared.managementCluster.name') ||
      DEFAULT_MANAGEMENT_CLUSTER_NAME,
    kubeconfigPath: kubeconfigPath
      ? path.resolve(rootDir, kubeconfigPath)
      : undefined,
  };
}

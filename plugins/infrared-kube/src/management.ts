import type { RootConfigService } from '@backstage/backend-plugin-api';
import { DEFAULT_MANAGEMENT_CLUSTER_NAME } from '@infrared-clusters/plugin-infrared-common';
import { targetPaths } from '@backstage/cli-common';
import path from 'node:path';
import {
  isInCluster,
  KubeClient,
  kubeConfigFromFile,
  kubeConfigInCluster,
} from './client';

/**
 * The repository root (the nearest folder upwards from the working directory whose package.json declares
 * workspaces), which relative paths in config are resolved against; the working directory when there is none.
 * Backstage's `targetPaths.rootDir` from `@backstage/cli-common` (what its deprecated `findPaths(...).targetRoot`
 * now returns), as the Backstage CLI and backend resolve their own config paths.
 *
 * @public
 */
export function findRepoRoot(): string {
  return targetPaths.rootDir;
}

/**
 * `infrared.managementCluster`: the cluster the backend and Argo CD run on.
 *
 * @public
 */
export interface ManagementClusterConfig {
  /** `infrared.managementCluster.name`, default infrared-mgmt: the name of its Cluster resource. */
  name: string;
  /** `infrared.managementCluster.kubeconfigPath`, absolute; undefined means in-cluster config. */
  kubeconfigPath?: string;
}

/**
 * Reads `infrared.managementCluster`; a relative kubeconfigPath is resolved against `rootDir`.
 *
 * @public
 */
export function readManagementClusterConfig(
  config: RootConfigService,
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

/**
 * The management cluster's client from config: `infrared.managementCluster.kubeconfigPath` when set
 * (`npm start` points it at the local control plane), else the pod's service account; or why there
 * is none. The one place the Infrared backend plugin and its modules decide where the management
 * cluster is.
 *
 * @public
 */
export function createManagementClient(
  config: RootConfigService,
): { client: KubeClient } | { unavailable: string } {
  const { kubeconfigPath } = readManagementClusterConfig(config);
  try {
    if (kubeconfigPath) {
      return { client: new KubeClient(kubeConfigFromFile(kubeconfigPath)) };
    }
    if (isInCluster()) {
      return { client: new KubeClient(kubeConfigInCluster()) };
    }
  } catch (e) {
    const where = kubeconfigPath ?? 'the in-cluster service account';
    return {
      unavailable: `the management cluster's kubeconfig (${where}) cannot be loaded: ${
        (e as Error).message
      }`,
    };
  }
  return {
    unavailable:
      'no management cluster is configured: set infrared.managementCluster.kubeconfigPath, or run the backend in a pod of the management cluster',
  };
}

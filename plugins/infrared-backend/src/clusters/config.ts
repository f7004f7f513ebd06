import { Config, readDurationFromConfig } from '@backstage/config';
import { DEFAULT_MANAGEMENT_CLUSTER_NAME } from '@internal/plugin-infrared-common';
import fs from 'node:fs';
import path from 'node:path';

type Duration = ReturnType<typeof readDurationFromConfig>;

export interface ClustersConfig {
  /** `infrared.managementCluster.name`, default infrared-mgmt. */
  managementCluster: string;
  /** `infrared.managementCluster.kubeconfigPath`, absolute; undefined means in-cluster config. */
  kubeconfigPath?: string;
  /** `infrared.reconcile.interval`, default 30 s. */
  reconcileInterval: Duration;
}

/**
 * The repository root (the folder whose package.json declares workspaces), which relative paths in
 * config are resolved against; the start folder when there is none.
 */
export function findRepoRoot(start: string = process.cwd()): string {
  for (let dir = path.resolve(start); ; dir = path.dirname(dir)) {
    try {
      const pkg = JSON.parse(
        fs.readFileSync(path.join(dir, 'package.json'), 'utf8'),
      );
      if (pkg.workspaces) return dir;
    } catch {
      // no package.json here
    }
    if (path.dirname(dir) === dir) return path.resolve(start);
  }
}

export function readClustersConfig(
  config: Config,
  rootDir: string = findRepoRoot(),
): ClustersConfig {
  const kubeconfigPath = config.getOptionalString(
    'infrared.managementCluster.kubeconfigPath',
  );
  const key = 'infrared.reconcile.interval';
  return {
    managementCluster:
      config.getOptionalString('infrared.managementCluster.name') ||
      DEFAULT_MANAGEMENT_CLUSTER_NAME,
    kubeconfigPath: kubeconfigPath
      ? path.resolve(rootDir, kubeconfigPath)
      : undefined,
    reconcileInterval: config.has(key)
      ? readDurationFromConfig(config, { key })
      : { seconds: 30 },
  };
}

import { Config, readDurationFromConfig } from '@backstage/config';
import { readManagementClusterConfig } from '../config';

type Duration = ReturnType<typeof readDurationFromConfig>;

export interface ClustersConfig {
  /** `infrared.managementCluster.name`, default infrared-mgmt. */
  managementCluster: string;
  /** `infrared.reconcile.interval`, default 30 s. */
  reconcileInterval: Duration;
  /** `infrared.gitops.batch.maxFilesPerChange`, default 300: the files one batched gitops change may hold. */
  maxFilesPerChange: number;
}

const MAX_FILES_KEY = 'infrared.gitops.batch.maxFilesPerChange';

export function readClustersConfig(config: Config): ClustersConfig {
  const key = 'infrared.reconcile.interval';
  return {
    managementCluster: readManagementClusterConfig(config).name,
    reconcileInterval: config.has(key)
      ? readDurationFromConfig(config, { key })
      : { seconds: 30 },
    maxFilesPerChange: readMaxFilesPerChange(config),
  };
}

function readMaxFilesPerChange(config: Config): number {
  const value = config.getOptionalNumber(MAX_FILES_KEY) ?? 300;
  if (!Number.isInteger(value) || value < 1) {
    throw new Error(
      `${MAX_FILES_KEY} must be a whole number of at least 1, not ${value}`,
    );
  }
  return value;
}

import { Config, readDurationFromConfig } from '@backstage/config';
import { readManagementClusterConfig } from '../config';

type Duration = ReturnType<typeof readDurationFromConfig>;

export interface ClustersConfig {
  /** `infrared.managementCluster.name`, default infrared-mgmt. */
  managementCluster: string;
  /** `infrared.reconcile.interval`, default 30 s. */
  reconcileInterval: Duration;
  /** `infrared.gitops.batch.maxFilesPerChange`, default 1000: the files one batched gitops change may hold. */
  maxFilesPerChange: number;
}

const MAX_FILES_KEY = 'infrared.gitops.batch.maxFilesPerChange';

/**
 * 250 registrations of 4 files a pull request: 1,000 registrations in 4 pull requests, 10,000 in 40
 * (issue 25: at most 10 and 500 requests). GitHub lists at most 3,000 files of a pull request, so a
 * reviewer still sees every file of one.
 */
export const DEFAULT_MAX_FILES_PER_CHANGE = 1000;

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
  const value =
    config.getOptionalNumber(MAX_FILES_KEY) ?? DEFAULT_MAX_FILES_PER_CHANGE;
  if (!Number.isInteger(value) || value < 1) {
    throw new Error(
      `${MAX_FILES_KEY} must be a whole number of at least 1, not ${value}`,
    );
  }
  return value;
}

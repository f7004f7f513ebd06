import { Config, readDurationFromConfig } from '@backstage/config';
import { readManagementClusterConfig } from '../config';

type Duration = ReturnType<typeof readDurationFromConfig>;

export interface ClustersConfig {
  /** `infrared.managementCluster.name`, default infrared-mgmt. */
  managementCluster: string;
  /** `infrared.reconcile.interval`, default 30 s. */
  reconcileInterval: Duration;
}

export function readClustersConfig(config: Config): ClustersConfig {
  const key = 'infrared.reconcile.interval';
  return {
    managementCluster: readManagementClusterConfig(config).name,
    reconcileInterval: config.has(key)
      ? readDurationFromConfig(config, { key })
      : { seconds: 30 },
  };
}

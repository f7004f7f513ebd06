import {
  readSchedulerServiceTaskScheduleDefinitionFromConfig,
  type RootConfigService,
  type SchedulerServiceTaskScheduleDefinition,
} from '@backstage/backend-plugin-api';
import {
  REGISTRAR_DEFAULTS,
  type DiscoveredClustersOptions,
} from '@infrared-clusters/infrared-registrar';
import type { ClusterEntityOptions } from '../entities';

const KEY = 'catalog.providers.infrared';

/** `catalog.providers.infrared`. */
export interface ProviderConfig extends ClusterEntityOptions {
  schedule: SchedulerServiceTaskScheduleDefinition;
}

export const DEFAULT_OWNER = 'group:default/platform-admins';
export const DEFAULT_SCHEDULE: SchedulerServiceTaskScheduleDefinition = {
  frequency: { minutes: 5 },
  timeout: { minutes: 3 },
};

/**
 * Reads `catalog.providers.infrared` (owner, system, schedule, clustersPageUrl: default
 * `<app.baseUrl>/clusters`), with the defaults of config.d.ts.
 */
export function readProviderConfig(config: RootConfigService): ProviderConfig {
  const own = config.getOptionalConfig(KEY);
  const schedule = own?.has('schedule')
    ? readSchedulerServiceTaskScheduleDefinitionFromConfig(
        own.getConfig('schedule'),
      )
    : DEFAULT_SCHEDULE;
  const system = own?.getOptionalString('system');
  const appBaseUrl = config.getOptionalString('app.baseUrl');
  const clustersPageUrl =
    own?.getOptionalString('clustersPageUrl') ??
    (appBaseUrl ? `${appBaseUrl.replace(/\/$/, '')}/clusters` : undefined);
  return {
    owner: own?.getOptionalString('owner') || DEFAULT_OWNER,
    ...(system ? { system } : {}),
    ...(clustersPageUrl ? { clustersPageUrl } : {}),
    schedule,
  };
}

/**
 * Where the registrar's child-cluster Secrets are, as the infrared backend reads
 * `infrared.registrar` (targetNamespace, labelPrefix, managedBy), when `infrared.registrar.enabled`
 * is true; undefined when the registrar does not run.
 */
export function readDiscoveredConfig(
  config: RootConfigService,
): DiscoveredClustersOptions | undefined {
  const block = config.getOptionalConfig('infrared.registrar');
  if (block?.getOptional('enabled') !== true) return undefined;
  return {
    targetNamespace:
      block.getOptionalString('targetNamespace') ??
      REGISTRAR_DEFAULTS.targetNamespace,
    labelPrefix:
      block.getOptionalString('labelPrefix') ?? REGISTRAR_DEFAULTS.labelPrefix,
    managedBy:
      block.getOptionalString('managedBy') ?? REGISTRAR_DEFAULTS.managedBy,
  };
}

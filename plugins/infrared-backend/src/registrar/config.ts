import type { Config } from '@backstage/config';
import {
  RegistrarConfigError,
  resolveRegistrarOptions,
  REGISTRAR_DEFAULTS,
  type RegistrarInput,
  type RegistrarOptions,
} from '@internal/plugin-infrared-node';

export const REGISTRAR_CONFIG_KEY = 'infrared.registrar';

export interface RegistrarSettings {
  /** `infrared.registrar.enabled`, default false. */
  enabled: boolean;
  options: RegistrarOptions;
  /** Worth logging at startup (e.g. a provider order that hides another provider's Secrets). */
  warnings: string[];
}

const KEYS: Array<keyof RegistrarInput> = [
  'targetNamespace',
  'labelPrefix',
  'managedBy',
  'providers',
  'interval',
  'demotedTtl',
  'execCredentials',
  'dryRun',
];

/**
 * Reads and validates `infrared.registrar`. Throws a RegistrarConfigError naming the key
 * (`infrared.registrar.labelPrefix: ...`) on invalid values, enabled or not, so a mistake stops
 * startup instead of failing every pass.
 */
export function readRegistrarConfig(config: Config): RegistrarSettings {
  const block = config.getOptionalConfig(REGISTRAR_CONFIG_KEY);
  const input: RegistrarInput = {};
  let enabled = false;
  if (block) {
    const raw = block.getOptional('enabled');
    if (raw !== undefined && typeof raw !== 'boolean') {
      throw new RegistrarConfigError(
        `${REGISTRAR_CONFIG_KEY}.enabled`,
        'must be true or false',
      );
    }
    enabled = raw === true;
    for (const key of KEYS) {
      const value = block.getOptional(key);
      if (value !== undefined) (input as Record<string, unknown>)[key] = value;
    }
  }
  const { options, warnings } = resolveRegistrarOptions(input, {
    keyName: key => `${REGISTRAR_CONFIG_KEY}.${key}`,
  });
  return { enabled, options, warnings };
}

/** What the Clusters page needs to find the registrar's Secrets (listDiscoveredClusters options). */
export function discoveredClustersOptions(config: Config) {
  const block = config.getOptionalConfig(REGISTRAR_CONFIG_KEY);
  return {
    targetNamespace:
      block?.getOptionalString('targetNamespace') ??
      REGISTRAR_DEFAULTS.targetNamespace,
    labelPrefix:
      block?.getOptionalString('labelPrefix') ?? REGISTRAR_DEFAULTS.labelPrefix,
    managedBy:
      block?.getOptionalString('managedBy') ?? REGISTRAR_DEFAULTS.managedBy,
  };
}

import type { Config } from '@backstage/config';
import {
  RegistrarConfigError,
  resolveRegistrarOptions,
  REGISTRAR_DEFAULTS,
  REGISTRAR_INPUT_KEYS,
  type RegistrarInput,
  type RegistrarOptions,
} from '@infrared-clusters/infrared-registrar';

export const REGISTRAR_CONFIG_KEY = 'infrared.registrar';

export interface RegistrarSettings {
  /** `infrared.registrar.enabled`, default false. */
  enabled: boolean;
  options: RegistrarOptions;
  /**
   * `infrared.registrar.gitops`, default true: the backend publishes each registered child's
   * registration files (as a Cluster's registration) through its gitops publisher.
   */
  gitops: boolean;
  /** Worth logging at startup (e.g. a provider order that hides another provider's Secrets). */
  warnings: string[];
}

/**
 * Keys of upstream's values (seed 003) that have no place here, with what to use instead. Its
 * `secretNamePattern`/`secretKey` are taken (as one deprecated provider, like the CLI's flags).
 */
const REPLACED: Record<string, string> = {
  debug:
    'not a registrar setting here: the registrar logs through the backend logger; for its debug lines set backend.logger.overrides: [{matchers: {task: infrared-registrar}, level: debug}] (or backend.logger.level: debug)',
  replicaCount:
    'not needed: the registrar is a global scheduled task, one backend replica runs each pass',
  leaderElection:
    'not needed: the backend elects itself on a Lease in the target namespace (the replica holding it passes on a change; the global scheduled task is the resync)',
};

/**
 * Reads and validates `infrared.registrar`. Throws a RegistrarConfigError naming the key
 * (`infrared.registrar.labelPrefix: ...`) on invalid values, enabled or not, so a mistake stops
 * startup instead of failing every pass.
 */
export function readRegistrarConfig(config: Config): RegistrarSettings {
  const block = config.getOptionalConfig(REGISTRAR_CONFIG_KEY);
  const input: RegistrarInput = {};
  let enabled = false;
  let gitops = true;
  if (block) {
    const raw = block.getOptional('enabled');
    if (raw !== undefined && typeof raw !== 'boolean') {
      throw new RegistrarConfigError(
        `${REGISTRAR_CONFIG_KEY}.enabled`,
        'must be true or false',
      );
    }
    enabled = raw === true;
    const rawGitops = block.getOptional('gitops');
    if (rawGitops !== undefined && typeof rawGitops !== 'boolean') {
      throw new RegistrarConfigError(
        `${REGISTRAR_CONFIG_KEY}.gitops`,
        'must be true or false',
      );
    }
    gitops = rawGitops !== false;
    for (const key of block.keys()) {
      if (key === 'enabled' || key === 'gitops') continue;
      const at = `${REGISTRAR_CONFIG_KEY}.${key}`;
      if (REPLACED[key]) throw new RegistrarConfigError(at, REPLACED[key]);
      if (!(REGISTRAR_INPUT_KEYS as readonly string[]).includes(key)) {
        throw new RegistrarConfigError(
          at,
          `unknown key; expected one of enabled, gitops, ${REGISTRAR_INPUT_KEYS.join(
            ', ',
          )}`,
        );
      }
      (input as Record<string, unknown>)[key] = block.getOptional(key);
    }
  }
  const { options, warnings } = resolveRegistrarOptions(input, {
    keyName: key => `${REGISTRAR_CONFIG_KEY}.${key}`,
  });
  return { enabled, gitops, options, warnings };
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

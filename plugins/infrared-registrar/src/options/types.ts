/**
 * One provisioner's kubeconfig Secret shape: a name glob and the keys that may hold the kubeconfig.
 *
 * @public
 */
export interface RegistrarProvider {
  /** Written as the `<prefix>provider` label value; must be a valid label value. */
  name: string;
  /** Go `path.Match` glob over Secret names in a managed namespace. */
  secretNamePattern: string;
  /** Data keys tried in order; a Secret carrying none of them is not a candidate. */
  keys: string[];
  /** Exec credentials may be converted (also needs `execCredentials`). */
  allowExec: boolean;
  /** The provisioner's Secret `type`, a provenance signal when candidates compete. */
  secretType?: string;
}

/**
 * Validated registrar options (CLI flags and `infrared.registrar` config map onto these).
 *
 * @public
 */
export interface RegistrarOptions {
  targetNamespace: string;
  labelPrefix: string;
  managedBy: string;
  providers: RegistrarProvider[];
  intervalMs: number;
  /** 0 = demoted registrations are never deleted. */
  demotedTtlMs: number;
  execCredentials: boolean;
  dryRun: boolean;
}

/** @public */
export const REGISTRAR_DEFAULTS = {
  targetNamespace: 'argocd',
  labelPrefix: 'argocd-cluster-registrar/',
  managedBy: 'cluster-registrar',
  providers: ['k3k'],
  intervalMs: 60_000,
  demotedTtlMs: 0,
  execCredentials: false,
  dryRun: false,
} as const;

/**
 * A provider as configured: a preset name, a CLI spec `name=glob=key[,key][=exec]`, or an object.
 *
 * @public
 */
export type ProviderInput =
  | string
  | {
      name: string;
      secretNamePattern?: string;
      keys?: string[];
      allowExec?: boolean;
      secretType?: string;
    };

/**
 * `{ minutes: 1 }` and friends, as Backstage's HumanDuration.
 *
 * @public
 */
export interface DurationObject {
  years?: number;
  months?: number;
  weeks?: number;
  days?: number;
  hours?: number;
  minutes?: number;
  seconds?: number;
  milliseconds?: number;
}

/**
 * A Go duration (`60s`, `1h30m`, `0`), an ISO 8601 duration, a number of seconds, or an object.
 *
 * @public
 */
export type DurationInput = string | number | DurationObject;

/**
 * The options before validation; everything is optional and defaults as upstream does.
 *
 * @public
 */
export interface RegistrarInput {
  targetNamespace?: string;
  labelPrefix?: string;
  managedBy?: string;
  providers?: ProviderInput[];
  interval?: DurationInput;
  demotedTtl?: DurationInput;
  execCredentials?: boolean;
  dryRun?: boolean;
  /**
   * Deprecated (upstream's 0.2 values / `--secret-name-pattern`): with `secretKey`, one provider
   * named {@link LEGACY_PROVIDER_NAME}; defaults `k3k-*-kubeconfig` / `kubeconfig.yaml` for the
   * one not given. Not with `providers`.
   */
  secretNamePattern?: string;
  /** Deprecated (upstream's 0.2 values / `--secret-key`): see `secretNamePattern`. */
  secretKey?: string;
}

/**
 * Every key RegistrarInput takes; anything else is refused.
 *
 * @public
 */
export const REGISTRAR_INPUT_KEYS: ReadonlyArray<keyof RegistrarInput> = [
  'targetNamespace',
  'labelPrefix',
  'managedBy',
  'providers',
  'interval',
  'demotedTtl',
  'execCredentials',
  'dryRun',
  'secretNamePattern',
  'secretKey',
];

/**
 * The keys a provider object takes; anything else is refused.
 *
 * @public
 */
export const PROVIDER_OBJECT_KEYS = [
  'name',
  'secretNamePattern',
  'keys',
  'allowExec',
  'secretType',
] as const;

/**
 * The provider the deprecated pattern/key settings stand for, and its `<prefix>provider` label.
 *
 * @public
 */
export const LEGACY_PROVIDER_NAME = 'custom';

/**
 * Invalid registrar configuration; the message names the key (or flag) at fault.
 *
 * @public
 */
export class RegistrarConfigError extends Error {
  constructor(readonly key: string, message: string) {
    super(`${key}: ${message}`);
    this.name = 'RegistrarConfigError';
  }
}

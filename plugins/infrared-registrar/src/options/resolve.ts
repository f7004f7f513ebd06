import {
  dns1123LabelError,
  labelValueError,
  qualifiedNameError,
} from '../validation';
import { durationMs } from './duration';
import {
  legacyProvider,
  providerOrderWarnings,
  resolveProvider,
  validateProviders,
} from './providers';
import {
  REGISTRAR_DEFAULTS,
  REGISTRAR_INPUT_KEYS,
  RegistrarConfigError,
  type ProviderInput,
  type RegistrarInput,
  type RegistrarOptions,
  type RegistrarProvider,
} from './types';

type KeyName = (key: string) => string;

/** Where the label prefix reaches Argo CD's own domain (then a namespace could set secret-type). */
function isArgoDomain(prefix: string): boolean {
  const domain = prefix.replace(/\/$/, '').toLowerCase();
  return (
    domain === 'argocd.argoproj.io' || domain.endsWith('.argocd.argoproj.io')
  );
}

/** @public */
export interface ResolveOptions {
  /** How a key is named in errors; default `infrared.registrar.<key>`. The CLI names its flags. */
  keyName?: (key: string) => string;
}

function refuseUnknownKeys(input: RegistrarInput, key: KeyName) {
  for (const k of Object.keys(input)) {
    if (!(REGISTRAR_INPUT_KEYS as readonly string[]).includes(k)) {
      throw new RegistrarConfigError(
        key(k),
        `unknown key; expected one of ${REGISTRAR_INPUT_KEYS.map(key).join(
          ', ',
        )}`,
      );
    }
  }
}

/** A string setting, trimmed, refused when empty or when `problem` finds fault with it. */
function nameSetting(
  input: RegistrarInput,
  k: 'targetNamespace' | 'managedBy',
  key: KeyName,
  problem: (value: string) => string | undefined,
): string {
  const v = input[k];
  let value: string = REGISTRAR_DEFAULTS[k];
  if (v !== undefined && v !== null) {
    if (typeof v !== 'string') {
      throw new RegistrarConfigError(key(k), 'must be a string');
    }
    value = v.trim();
  }
  if (!value) throw new RegistrarConfigError(key(k), 'must not be empty');
  const err = problem(value);
  if (err) throw new RegistrarConfigError(key(k), err);
  return value;
}

function labelPrefixSetting(input: RegistrarInput, key: KeyName): string {
  const labelPrefix =
    input.labelPrefix === undefined || input.labelPrefix === null
      ? REGISTRAR_DEFAULTS.labelPrefix
      : String(input.labelPrefix);
  const fail = (message: string) =>
    new RegistrarConfigError(key('labelPrefix'), message);
  if (!labelPrefix) throw fail('must not be empty');
  if (!labelPrefix.endsWith('/')) {
    throw fail(`"${labelPrefix}" must end in '/'`);
  }
  if (isArgoDomain(labelPrefix)) {
    throw fail(
      `"${labelPrefix}" is inside argocd.argoproj.io/: a source namespace could then set Argo CD's own labels`,
    );
  }
  const prefixErr = qualifiedNameError(`${labelPrefix}managed-by`);
  if (prefixErr) {
    throw fail(
      `"${labelPrefix}" does not yield a valid label key: ${prefixErr}`,
    );
  }
  return labelPrefix;
}

function providersSetting(
  input: RegistrarInput,
  key: KeyName,
): { providers: RegistrarProvider[]; warnings: string[] } {
  if (
    input.providers !== undefined &&
    input.providers !== null &&
    !Array.isArray(input.providers)
  ) {
    throw new RegistrarConfigError(key('providers'), 'must be a list');
  }
  const legacy = legacyProvider(input, key);
  // An empty list means the default, as upstream's chart `providers: []` does.
  let providerInputs: ProviderInput[] = [...REGISTRAR_DEFAULTS.providers];
  if (legacy) providerInputs = [legacy.provider];
  else if (input.providers?.length) providerInputs = input.providers;
  const providers = providerInputs.map((p, i) =>
    resolveProvider(p, key(`providers[${i}]`)),
  );
  validateProviders(providers, key);
  return {
    providers,
    warnings: [
      ...(legacy ? [legacy.warning] : []),
      ...providerOrderWarnings(providers),
    ],
  };
}

function durationSettings(input: RegistrarInput, key: KeyName) {
  const duration = (k: 'interval' | 'demotedTtl', fallback: number) => {
    const v = input[k];
    if (v === undefined || v === null || v === '') return fallback;
    try {
      return durationMs(v);
    } catch (e) {
      throw new RegistrarConfigError(key(k), (e as Error).message);
    }
  };
  const intervalMs = duration('interval', REGISTRAR_DEFAULTS.intervalMs);
  if (!(intervalMs > 0)) {
    throw new RegistrarConfigError(key('interval'), 'must be greater than 0');
  }
  const demotedTtlMs = duration('demotedTtl', REGISTRAR_DEFAULTS.demotedTtlMs);
  if (demotedTtlMs < 0) {
    throw new RegistrarConfigError(
      key('demotedTtl'),
      'must not be negative (0 keeps demoted registrations forever)',
    );
  }
  return { intervalMs, demotedTtlMs };
}

function boolSetting(
  input: RegistrarInput,
  k: 'execCredentials' | 'dryRun',
  key: KeyName,
): boolean {
  const v = input[k];
  if (v === undefined || v === null) return false;
  if (typeof v !== 'boolean') {
    throw new RegistrarConfigError(key(k), 'must be true or false');
  }
  return v;
}

/**
 * Defaults and validates registrar options; throws RegistrarConfigError naming the key. Also
 * returns warnings worth logging at startup (provider order).
 *
 * @public
 */
export function resolveRegistrarOptions(
  input: RegistrarInput = {},
  resolve: ResolveOptions = {},
): { options: RegistrarOptions; warnings: string[] } {
  const key = resolve.keyName ?? ((k: string) => `infrared.registrar.${k}`);
  refuseUnknownKeys(input, key);
  const targetNamespace = nameSetting(input, 'targetNamespace', key, v => {
    const err = dns1123LabelError(v);
    return err && `"${v}" is not a namespace name: ${err}`;
  });
  const managedBy = nameSetting(input, 'managedBy', key, v => {
    const err = labelValueError(v);
    return err && `"${v}" is not a valid label value: ${err}`;
  });
  const labelPrefix = labelPrefixSetting(input, key);
  const { providers, warnings } = providersSetting(input, key);
  return {
    options: {
      targetNamespace,
      labelPrefix,
      managedBy,
      providers,
      ...durationSettings(input, key),
      execCredentials: boolSetting(input, 'execCredentials', key),
      dryRun: boolSetting(input, 'dryRun', key),
    },
    warnings,
  };
}

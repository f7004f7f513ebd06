import { globError, pathMatch } from './glob';
import {
  dns1123LabelError,
  labelValueError,
  qualifiedNameError,
  secretKeyError,
} from './validation';

/** One provisioner's kubeconfig Secret shape: a name glob and the keys that may hold the kubeconfig. */
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

/** Validated registrar options (CLI flags and `infrared.registrar` config map onto these). */
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

/** The provisioner shapes shipped as presets (upstream `registrar.go`). */
export const PROVIDER_PRESETS: Readonly<Record<string, RegistrarProvider>> = {
  k3k: {
    name: 'k3k',
    secretNamePattern: 'k3k-*-kubeconfig',
    keys: ['kubeconfig.yaml'],
    allowExec: false,
  },
  vcluster: {
    name: 'vcluster',
    secretNamePattern: 'vc-*',
    keys: ['config'],
    allowExec: false,
  },
  kamaji: {
    name: 'kamaji',
    secretNamePattern: '*-admin-kubeconfig',
    keys: ['admin.conf', 'admin.svc'],
    allowExec: false,
  },
  capi: {
    name: 'capi',
    secretNamePattern: '*-kubeconfig',
    keys: ['value'],
    allowExec: false,
    secretType: 'cluster.x-k8s.io/secret',
  },
  'capa-eks': {
    name: 'capa-eks',
    secretNamePattern: '*-user-kubeconfig',
    keys: ['value'],
    allowExec: true,
  },
  'capz-aks': {
    name: 'capz-aks',
    secretNamePattern: '*-kubeconfig-user',
    keys: ['value'],
    allowExec: true,
  },
};

export const PRESET_NAMES = Object.keys(PROVIDER_PRESETS).sort();

/** A provider as configured: a preset name, a CLI spec `name=glob=key[,key][=exec]`, or an object. */
export type ProviderInput =
  | string
  | {
      name: string;
      secretNamePattern?: string;
      keys?: string[];
      allowExec?: boolean;
      secretType?: string;
    };

/** `{ minutes: 1 }` and friends, as Backstage's HumanDuration. */
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

/** A Go duration (`60s`, `1h30m`, `0`), an ISO 8601 duration, a number of seconds, or an object. */
export type DurationInput = string | number | DurationObject;

/** The options before validation; everything is optional and defaults as upstream does. */
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

/** Every key RegistrarInput takes; anything else is refused. */
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

/** The keys a provider object takes; anything else is refused. */
export const PROVIDER_OBJECT_KEYS = [
  'name',
  'secretNamePattern',
  'keys',
  'allowExec',
  'secretType',
] as const;

/** The provider the deprecated pattern/key settings stand for, and its `<prefix>provider` label. */
export const LEGACY_PROVIDER_NAME = 'custom';

/** Invalid registrar configuration; the message names the key (or flag) at fault. */
export class RegistrarConfigError extends Error {
  constructor(readonly key: string, message: string) {
    super(`${key}: ${message}`);
    this.name = 'RegistrarConfigError';
  }
}

const GO_UNITS: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  μs: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};
const GO_PART = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h)/y;
const ISO =
  /^(-)?P(?:(\d+(?:\.\d+)?)Y)?(?:(\d+(?:\.\d+)?)M)?(?:(\d+(?:\.\d+)?)W)?(?:(\d+(?:\.\d+)?)D)?(?:T(?:(\d+(?:\.\d+)?)H)?(?:(\d+(?:\.\d+)?)M)?(?:(\d+(?:\.\d+)?)S)?)?$/;

const DAY = 86_400_000;

/** Go's time.ParseDuration, in milliseconds; undefined when the text is not one. */
export function parseGoDuration(text: string): number | undefined {
  let s = text.trim();
  let sign = 1;
  if (s.startsWith('-') || s.startsWith('+')) {
    if (s[0] === '-') sign = -1;
    s = s.slice(1);
  }
  if (s === '0') return 0;
  if (!s) return undefined;
  let total = 0;
  GO_PART.lastIndex = 0;
  while (GO_PART.lastIndex < s.length) {
    const at = GO_PART.lastIndex;
    const m = GO_PART.exec(s);
    if (!m || m.index !== at) return undefined;
    total += Number(m[1]) * GO_UNITS[m[2]];
  }
  return sign * total;
}

/** A duration input in milliseconds; throws a plain Error saying what is accepted. */
export function durationMs(input: DurationInput): number {
  if (typeof input === 'number') {
    if (!Number.isFinite(input))
      throw new Error('must be a finite number of seconds');
    return input * 1000;
  }
  if (typeof input === 'string') {
    const go = parseGoDuration(input);
    if (go !== undefined) return go;
    const iso = ISO.exec(input.trim());
    if (iso && input.trim() !== 'P' && !input.trim().endsWith('T')) {
      const n = (i: number) => Number(iso[i] ?? 0);
      const ms =
        n(2) * 365 * DAY +
        n(3) * 30 * DAY +
        n(4) * 7 * DAY +
        n(5) * DAY +
        n(6) * 3_600_000 +
        n(7) * 60_000 +
        n(8) * 1000;
      return iso[1] ? -ms : ms;
    }
    throw new Error(
      `"${input}" is not a duration: use a Go duration like 60s, 1h30m or 0, or ISO 8601 like PT1M`,
    );
  }
  if (input && typeof input === 'object') {
    const units: Record<keyof DurationObject, number> = {
      years: 365 * DAY,
      months: 30 * DAY,
      weeks: 7 * DAY,
      days: DAY,
      hours: 3_600_000,
      minutes: 60_000,
      seconds: 1000,
      milliseconds: 1,
    };
    let total = 0;
    for (const [key, value] of Object.entries(input)) {
      const unit = units[key as keyof DurationObject];
      if (unit === undefined || typeof value !== 'number') {
        throw new Error(`unknown duration field "${key}"`);
      }
      total += value * unit;
    }
    return total;
  }
  throw new Error('must be a duration');
}

/** Parses one `--provider` value: a preset name, or `name=glob=key[,key][=exec]`. */
export function parseProviderSpec(spec: string): ProviderInput {
  const text = spec.trim();
  if (!text) throw new Error('empty provider spec');
  if (!text.includes('=')) return text;
  const parts = text.split('=');
  if (parts.length !== 3 && parts.length !== 4) {
    throw new Error(
      `malformed provider spec "${text}": expected "name=pattern=key[,key...][=exec]"`,
    );
  }
  if (parts.length === 4 && parts[3].trim() !== 'exec') {
    throw new Error(
      `malformed provider spec "${text}": the fourth field may only be "exec"`,
    );
  }
  return {
    name: parts[0].trim(),
    secretNamePattern: parts[1].trim(),
    keys: parts[2]
      .split(',')
      .map(k => k.trim())
      .filter(Boolean),
    allowExec: parts.length === 4,
  };
}

function resolveProvider(input: ProviderInput, at: string): RegistrarProvider {
  if (typeof input === 'string') {
    let parsed: ProviderInput;
    try {
      parsed = parseProviderSpec(input);
    } catch (e) {
      throw new RegistrarConfigError(at, (e as Error).message);
    }
    if (typeof parsed !== 'string') return resolveProvider(parsed, at);
    const preset = PROVIDER_PRESETS[parsed];
    if (!preset) {
      throw new RegistrarConfigError(
        at,
        `unknown provider "${parsed}": expected one of ${PRESET_NAMES.join(
          ', ',
        )}, or a custom provider {name, secretNamePattern, keys, allowExec}`,
      );
    }
    return { ...preset, keys: [...preset.keys] };
  }
  if (!input || typeof input !== 'object' || Array.isArray(input)) {
    throw new RegistrarConfigError(at, 'must be a preset name or an object');
  }
  for (const k of Object.keys(input)) {
    if (!(PROVIDER_OBJECT_KEYS as readonly string[]).includes(k)) {
      throw new RegistrarConfigError(
        `${at}.${k}`,
        `unknown key; a provider takes ${PROVIDER_OBJECT_KEYS.join(', ')}`,
      );
    }
  }
  const typed: Array<[string, unknown, string]> = [
    ['name', input.name, 'string'],
    ['secretNamePattern', input.secretNamePattern, 'string'],
    ['allowExec', input.allowExec, 'boolean'],
    ['secretType', input.secretType, 'string'],
  ];
  for (const [k, v, t] of typed) {
    if (v !== undefined && v !== null && typeof v !== t) {
      throw new RegistrarConfigError(`${at}.${k}`, `must be a ${t}`);
    }
  }
  if (
    input.keys !== undefined &&
    input.keys !== null &&
    (!Array.isArray(input.keys) || input.keys.some(k => typeof k !== 'string'))
  ) {
    throw new RegistrarConfigError(`${at}.keys`, 'must be a list of strings');
  }
  const custom = input.secretNamePattern !== undefined || input.keys;
  if (!custom && PROVIDER_PRESETS[input.name]) {
    const preset = PROVIDER_PRESETS[input.name];
    return {
      ...preset,
      keys: [...preset.keys],
      allowExec: input.allowExec ?? preset.allowExec,
    };
  }
  return {
    name: (input.name ?? '').trim(),
    secretNamePattern: (input.secretNamePattern ?? '').trim(),
    keys: (input.keys ?? []).map(k => String(k).trim()),
    allowExec: !!input.allowExec,
    ...(input.secretType ? { secretType: input.secretType } : {}),
  };
}

function validateProviders(
  providers: RegistrarProvider[],
  key: (k: string) => string,
): void {
  if (providers.length === 0) {
    throw new RegistrarConfigError(
      key('providers'),
      'at least one provider must be configured',
    );
  }
  const seen = new Set<string>();
  providers.forEach((p, i) => {
    const at = key(`providers[${i}]`);
    if (!p.name) throw new RegistrarConfigError(at, 'the provider has no name');
    const nameErr = labelValueError(p.name);
    if (nameErr) {
      throw new RegistrarConfigError(
        `${at}.name`,
        `"${p.name}" is not a valid label value: ${nameErr}`,
      );
    }
    if (seen.has(p.name)) {
      throw new RegistrarConfigError(
        `${at}.name`,
        `duplicate provider name "${p.name}"`,
      );
    }
    seen.add(p.name);
    if (!p.secretNamePattern) {
      throw new RegistrarConfigError(
        `${at}.secretNamePattern`,
        `provider "${p.name}": the secret name pattern must not be empty`,
      );
    }
    const globErr = globError(p.secretNamePattern);
    if (globErr) {
      throw new RegistrarConfigError(
        `${at}.secretNamePattern`,
        `provider "${p.name}": "${p.secretNamePattern}" is not a valid glob (${globErr})`,
      );
    }
    if (p.keys.length === 0) {
      throw new RegistrarConfigError(
        `${at}.keys`,
        `provider "${p.name}": at least one secret key must be set`,
      );
    }
    const keys = new Set<string>();
    for (const k of p.keys) {
      const keyErr = secretKeyError(k);
      if (keyErr) {
        throw new RegistrarConfigError(
          `${at}.keys`,
          `provider "${p.name}": secret key "${k}" ${keyErr}`,
        );
      }
      if (keys.has(k)) {
        throw new RegistrarConfigError(
          `${at}.keys`,
          `provider "${p.name}": duplicate secret key "${k}"`,
        );
      }
      keys.add(k);
    }
  });
}

/** A name the glob matches when it stands for its own shape (`*`→x); undefined for classes. */
function sampleName(pattern: string): string | undefined {
  if (/[[\\]/.test(pattern)) return undefined;
  return pattern.replace(/[*?]/g, 'x');
}

/**
 * Where an earlier provider's glob also matches a later provider's Secrets and they share a key,
 * the earlier one claims them first (capi before capa-eks hides the exec-bearing Secret).
 */
export function providerOrderWarnings(
  providers: RegistrarProvider[],
): string[] {
  const warnings: string[] = [];
  providers.forEach((later, j) => {
    const sample = sampleName(later.secretNamePattern);
    if (!sample) return;
    for (const earlier of providers.slice(0, j)) {
      const sharesKey = earlier.keys.some(k => later.keys.includes(k));
      if (sharesKey && pathMatch(earlier.secretNamePattern, sample)) {
        warnings.push(
          `provider "${earlier.name}" is declared before "${later.name}" and its pattern "${earlier.secretNamePattern}" also matches "${later.secretNamePattern}" Secrets with the same key: "${earlier.name}" claims them first; declare "${later.name}" earlier if its Secrets should win`,
        );
        return;
      }
    }
  });
  return warnings;
}

/** Where the label prefix reaches Argo CD's own domain (then a namespace could set secret-type). */
function isArgoDomain(prefix: string): boolean {
  const domain = prefix.replace(/\/$/, '').toLowerCase();
  return (
    domain === 'argocd.argoproj.io' || domain.endsWith('.argocd.argoproj.io')
  );
}

export interface ResolveOptions {
  /** How a key is named in errors; default `infrared.registrar.<key>`. The CLI names its flags. */
  keyName?: (key: string) => string;
}

/**
 * Defaults and validates registrar options; throws RegistrarConfigError naming the key. Also
 * returns warnings worth logging at startup (provider order).
 */
export function resolveRegistrarOptions(
  input: RegistrarInput = {},
  resolve: ResolveOptions = {},
): { options: RegistrarOptions; warnings: string[] } {
  const key = resolve.keyName ?? ((k: string) => `infrared.registrar.${k}`);
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
  const str = (k: keyof RegistrarInput, fallback: string): string => {
    const v = input[k];
    if (v === undefined || v === null) return fallback;
    if (typeof v !== 'string') {
      throw new RegistrarConfigError(key(k), 'must be a string');
    }
    return v.trim();
  };

  const targetNamespace = str(
    'targetNamespace',
    REGISTRAR_DEFAULTS.targetNamespace,
  );
  if (!targetNamespace) {
    throw new RegistrarConfigError(key('targetNamespace'), 'must not be empty');
  }
  const nsErr = dns1123LabelError(targetNamespace);
  if (nsErr) {
    throw new RegistrarConfigError(
      key('targetNamespace'),
      `"${targetNamespace}" is not a namespace name: ${nsErr}`,
    );
  }

  const managedBy = str('managedBy', REGISTRAR_DEFAULTS.managedBy);
  if (!managedBy) {
    throw new RegistrarConfigError(key('managedBy'), 'must not be empty');
  }
  const mbErr = labelValueError(managedBy);
  if (mbErr) {
    throw new RegistrarConfigError(
      key('managedBy'),
      `"${managedBy}" is not a valid label value: ${mbErr}`,
    );
  }

  const labelPrefix =
    input.labelPrefix === undefined || input.labelPrefix === null
      ? REGISTRAR_DEFAULTS.labelPrefix
      : String(input.labelPrefix);
  if (!labelPrefix) {
    throw new RegistrarConfigError(key('labelPrefix'), 'must not be empty');
  }
  if (!labelPrefix.endsWith('/')) {
    throw new RegistrarConfigError(
      key('labelPrefix'),
      `"${labelPrefix}" must end in '/'`,
    );
  }
  if (isArgoDomain(labelPrefix)) {
    throw new RegistrarConfigError(
      key('labelPrefix'),
      `"${labelPrefix}" is inside argocd.argoproj.io/: a source namespace could then set Argo CD's own labels`,
    );
  }
  const prefixErr = qualifiedNameError(`${labelPrefix}managed-by`);
  if (prefixErr) {
    throw new RegistrarConfigError(
      key('labelPrefix'),
      `"${labelPrefix}" does not yield a valid label key: ${prefixErr}`,
    );
  }

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

  const bool = (k: 'execCredentials' | 'dryRun') => {
    const v = input[k];
    if (v === undefined || v === null) return false;
    if (typeof v !== 'boolean') {
      throw new RegistrarConfigError(key(k), 'must be true or false');
    }
    return v;
  };

  return {
    options: {
      targetNamespace,
      labelPrefix,
      managedBy,
      providers,
      intervalMs,
      demotedTtlMs,
      execCredentials: bool('execCredentials'),
      dryRun: bool('dryRun'),
    },
    warnings: [
      ...(legacy ? [legacy.warning] : []),
      ...providerOrderWarnings(providers),
    ],
  };
}

/**
 * The deprecated `secretNamePattern`/`secretKey` pair as upstream's CLI reads
 * `--secret-name-pattern`/`--secret-key`: either one set selects the legacy path (one provider,
 * the other value defaulted); mixing it with a non-empty `providers` is an error.
 */
function legacyProvider(
  input: RegistrarInput,
  key: (k: string) => string,
): { provider: ProviderInput; warning: string } | undefined {
  const given = (['secretNamePattern', 'secretKey'] as const).filter(
    k => input[k] !== undefined && input[k] !== null,
  );
  if (!given.length) return undefined;
  for (const k of given) {
    if (typeof input[k] !== 'string') {
      throw new RegistrarConfigError(key(k), 'must be a string');
    }
  }
  const pattern = (input.secretNamePattern ?? 'k3k-*-kubeconfig').trim();
  const secretKey = (input.secretKey ?? 'kubeconfig.yaml').trim();
  const spec = `${LEGACY_PROVIDER_NAME}=${pattern}=${secretKey}`;
  if (input.providers?.length) {
    throw new RegistrarConfigError(
      key(given[0]),
      `${given.map(key).join(' and ')} cannot be combined with ${key(
        'providers',
      )}; express them as a provider instead: ${spec}`,
    );
  }
  return {
    provider: {
      name: LEGACY_PROVIDER_NAME,
      secretNamePattern: pattern,
      keys: [secretKey],
    },
    warning: `${key('secretNamePattern')} and ${key(
      'secretKey',
    )} are deprecated; use ${key('providers')} ${spec}`,
  };
}

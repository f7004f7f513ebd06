import { globError, pathMatch } from '../glob';
import { labelValueError, secretKeyError } from '../validation';
import { PRESET_NAMES, PROVIDER_PRESETS } from './presets';
import {
  LEGACY_PROVIDER_NAME,
  PROVIDER_OBJECT_KEYS,
  RegistrarConfigError,
  type ProviderInput,
  type RegistrarInput,
  type RegistrarProvider,
} from './types';

/**
 * Parses one `--provider` value: a preset name, or `name=glob=key[,key][=exec]`.
 *
 * @public
 */
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

/** A configured provider: a preset (a copy), a parsed spec, or an object checked key by key. */
export function resolveProvider(
  input: ProviderInput,
  at: string,
): RegistrarProvider {
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

/** Refuses providers without a name, a valid glob or keys, and duplicates. */
export function validateProviders(
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
 *
 * @public
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

/**
 * The deprecated `secretNamePattern`/`secretKey` pair as upstream's CLI reads
 * `--secret-name-pattern`/`--secret-key`: either one set selects the legacy path (one provider,
 * the other value defaulted); mixing it with a non-empty `providers` is an error.
 */
export function legacyProvider(
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

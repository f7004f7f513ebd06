/*
 * The registrar's options: what the CLI flags and `infrared.registrar` config map onto, their
 * defaults and provider presets, and the validation that names the key at fault.
 */
export * from './types';
export { PRESET_NAMES, PROVIDER_PRESETS } from './presets';
export { durationMs, parseGoDuration } from './duration';
export { parseProviderSpec, providerOrderWarnings } from './providers';
export { resolveRegistrarOptions, type ResolveOptions } from './resolve';

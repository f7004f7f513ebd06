import { Config, readDurationFromConfig } from '@backstage/config';
import { durationToMilliseconds } from '@backstage/types';

/** The Lease one installation holds per management cluster, in the backend's namespace. */
export const INSTALLATION_LEASE_NAME = 'infrared-installation';

/** Renewals (and, for a refused installation, looks at the Lease) happen at most this often. */
const MAX_RENEW_EVERY_MS = 15_000;

const ID_KEY = 'infrared.installation.id';
const DURATION_KEY = 'infrared.installation.leaseDuration';

/** create-app's `app.baseUrl`: what a backend without the key counts as (tests, a bare config). */
const DEFAULT_APP_BASE_URL = 'http://localhost:3000';

export interface InstallationConfig {
  /** `infrared.installation.id`, else derived from app.baseUrl and the gitops repository. */
  id: string;
  /** Whether `id` was derived (no `infrared.installation.id`). */
  derived: boolean;
  /** `infrared.installation.leaseDuration`, whole seconds; default 60 s. */
  leaseDurationMs: number;
  /** How often the Lease is renewed or looked at: a quarter of the duration, at most 15 s. */
  renewEveryMs: number;
}

/** The key's duration (Go-style text, ISO 8601 or an object) in milliseconds, by Backstage's own helpers. */
function durationMs(config: Config, key: string): number {
  const duration = readDurationFromConfig(config, { key });
  // A Lease measured in months or years is a mistake; durationToMilliseconds would take 30 or 365 days.
  for (const unit of ['years', 'months'] as const) {
    if (duration[unit] !== undefined) {
      throw new Error(`${key}: use seconds, minutes or hours, not ${unit}`);
    }
  }
  return durationToMilliseconds(duration);
}

/** A URL without credentials, a trailing slash or `.git`: an id is logged and answered. */
function plainUrl(text: string): string {
  let url = text.trim();
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    parsed.search = '';
    parsed.hash = '';
    url = parsed.toString();
  } catch {
    url = url.replace(/^([a-z+.-]+:\/\/)[^/@]*@/i, '$1');
  }
  return url.replace(/\/+$/, '').replace(/\.git$/, '');
}

/**
 * The id every replica of one installation shares, from what makes it that installation: the
 * portal's URL and the GitHub repository it publishes to, `app=<app.baseUrl> gitops=<repoUrl>`. A
 * trial backend with another URL or repository differs; replicas behind one URL with one config do
 * not. With a local repository (development, tests) it is `gitops=local` whatever the path and URL,
 * so that the local portal, its tests and benches on one devenv control plane count as one.
 */
export function derivedInstallationId(config: Config): string {
  const type = config.getOptionalString('infrared.gitops.type') ?? 'local';
  if (type !== 'github') return `gitops=${type}`;
  const repo = config.getOptionalString('infrared.gitops.repoUrl');
  const app = plainUrl(
    config.getOptionalString('app.baseUrl') ?? DEFAULT_APP_BASE_URL,
  );
  return `app=${app} gitops=${repo ? plainUrl(repo) : 'github'}`;
}

/** Printable ASCII without leading or trailing spaces, at most 253 characters. */
const ID_PATTERN = /^[\x21-\x7e]([\x20-\x7e]{0,251}[\x21-\x7e])?$/;

/** Reads `infrared.installation` (throws naming the key on an invalid value). */
export function readInstallationConfig(config: Config): InstallationConfig {
  const configured = config.getOptionalString(ID_KEY);
  if (configured !== undefined && !ID_PATTERN.test(configured)) {
    throw new Error(
      `${ID_KEY} must be 1 to 253 printable characters without leading or trailing spaces`,
    );
  }
  let leaseDurationMs = 60_000;
  if (config.has(DURATION_KEY)) {
    leaseDurationMs = durationMs(config, DURATION_KEY);
    if (!(leaseDurationMs >= 1_000)) {
      throw new Error(`${DURATION_KEY} must be at least 1 second`);
    }
    leaseDurationMs = Math.ceil(leaseDurationMs / 1000) * 1000;
  }
  return {
    id: configured ?? derivedInstallationId(config),
    derived: configured === undefined,
    leaseDurationMs,
    renewEveryMs: Math.min(MAX_RENEW_EVERY_MS, leaseDurationMs / 4),
  };
}

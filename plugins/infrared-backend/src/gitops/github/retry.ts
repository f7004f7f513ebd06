import type { LoggerService } from '@backstage/backend-plugin-api';
import { retry } from '@octokit/plugin-retry';
import { throttling } from '@octokit/plugin-throttling';
import { Octokit } from '@octokit/rest';
import Bottleneck from 'bottleneck';

export type Sleep = (ms: number) => Promise<void>;

export const realSleep: Sleep = ms => new Promise(r => setTimeout(r, ms));

export interface RetryOptions {
  /**
   * Default true. False turns both plugins off (their own `enabled`): for tests that inject no fault, since
   * every request through the plugins' limiters takes some milliseconds of timers.
   */
  enabled?: boolean;
  /** Retries of one request after the first try: for 5xx answers, and again for rate limits. Default 4. */
  maxRetries?: number;
  /** A rate limit that asks for a longer wait fails the request instead. Default 60 s. */
  maxDelayMs?: number;
  /**
   * Milliseconds per unit of the plugins' waits: a second of `retry-after` or of the rate limit reset, and
   * the n² units before the n-th retry of a 5xx. Default 1000; tests make it tiny.
   */
  retryAfterBaseValue?: number;
  /** Space writes as GitHub asks (the throttling plugin's write and notification pacing). Default true. */
  paceWrites?: boolean;
}

/** Every 4xx: only 5xx answers (and network failures) are retried; throttling owns the rate limits. */
const CLIENT_ERRORS = Array.from({ length: 100 }, (_, i) => 400 + i);

/**
 * Logs each 5xx answer and whether the retry plugin tries again. Listed before it, so it sees every try. The
 * URL template only: no query string, no headers, so no credential can reach the log.
 */
function logServerErrors(
  octokit: Pick<Octokit, 'hook' | 'log'>,
  options: { retry?: { retries?: number } },
) {
  const retries = options.retry?.retries ?? 0;
  octokit.hook.error('request', async (error, request) => {
    const { status } = error as { status?: number };
    if (status !== undefined && status >= 500) {
      const done = (request.request as { retryCount?: number }).retryCount ?? 0;
      octokit.log.warn(
        `GitHub answered ${status} to ${request.method} ${request.url}; ${
          done < retries ? `retry ${done + 1} of ${retries}` : 'no retry left'
        }`,
      );
    }
    throw error;
  });
}

/**
 * Gives each request its own `request` options, where the plugins count its retries: Octokit shares that
 * object between all the requests of an instance (octokit/plugin-throttling.js#462). Listed last, so it runs
 * first.
 */
function ownRequestOptions(octokit: Pick<Octokit, 'hook'>) {
  octokit.hook.before('request', options => {
    options.request = { ...options.request };
  });
}

const RetryingOctokit = Octokit.plugin(
  logServerErrors,
  retry,
  throttling,
  ownRequestOptions,
);

/** Limiters without the write pacing, for tests. */
function unpacedGroups() {
  const group = new Bottleneck.Group();
  return { write: group, notifications: group, search: group };
}

/**
 * An Octokit that retries 5xx answers (`@octokit/plugin-retry`) and waits out rate limits as GitHub asks
 * (`@octokit/plugin-throttling`: `retry-after`, the reset of an exhausted quota), both bounded in count, and a
 * rate limit also in time.
 */
export function createRetryingOctokit(options: {
  token: string;
  baseUrl: string;
  logger?: LoggerService;
  retry?: RetryOptions;
  /** Octokit's request options (tests give a `fetch`). */
  request?: { fetch?: typeof fetch };
}): Octokit {
  const { logger } = options;
  // Set, not left undefined: the retry plugin takes an undefined `enabled` as off.
  const enabled = options.retry?.enabled ?? true;
  const maxRetries = options.retry?.maxRetries ?? 4;
  const maxDelayMs = options.retry?.maxDelayMs ?? 60_000;
  const retryAfterBaseValue = options.retry?.retryAfterBaseValue ?? 1000;
  const onLimit =
    (kind: string) =>
    (
      retryAfter: number,
      request: { method: string; url: string },
      _octokit: unknown,
      retryCount: number,
    ) => {
      const what = `GitHub's ${kind} rate limit on ${request.method} ${request.url}`;
      if (retryCount >= maxRetries || retryAfter * 1000 > maxDelayMs) {
        logger?.warn(
          `${what}: not waiting ${retryAfter} s (try ${retryCount + 1})`,
        );
        return false;
      }
      logger?.warn(`${what}; retrying in ${retryAfter} s`);
      return true;
    };
  const noop = () => {};
  return new RetryingOctokit({
    auth: options.token,
    baseUrl: options.baseUrl,
    userAgent: 'infrared-gitops-publisher',
    request: options.request,
    log: {
      debug: noop,
      info: noop,
      warn: (message: string) => logger?.warn(message),
      // Octokit logs every failed request here, expected 404s included; the publisher reports real failures.
      error: (message: string) => logger?.debug(message),
    },
    retry: {
      enabled,
      retries: maxRetries,
      retryAfterBaseValue,
      doNotRetry: CLIENT_ERRORS,
    },
    throttle: {
      enabled,
      // Paced per API (GitHub Enterprise apart from github.com).
      id: options.baseUrl,
      retryAfterBaseValue,
      onRateLimit: onLimit('primary'),
      onSecondaryRateLimit: onLimit('secondary'),
      ...(options.retry?.paceWrites === false ? unpacedGroups() : {}),
    },
  });
}

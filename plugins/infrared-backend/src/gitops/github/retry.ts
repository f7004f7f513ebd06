import { LoggerService } from '@backstage/backend-plugin-api';
import type { Octokit } from '@octokit/rest';

export type Sleep = (ms: number) => Promise<void>;

export const realSleep: Sleep = ms => new Promise(r => setTimeout(r, ms));

export interface RetryOptions {
  sleep?: Sleep;
  /** Retries of one request after the first try. Default 4. */
  maxRetries?: number;
  /** A wait GitHub asks for beyond this fails the request instead. Default 60 s. */
  maxDelayMs?: number;
  logger?: LoggerService;
  now?: () => number;
}

interface HttpishError {
  status?: number;
  response?: { headers?: Record<string, string | number | undefined> };
}

/**
 * How long to wait before retrying a failed GitHub request, or undefined when retrying cannot help.
 * 5xx: exponential backoff; 403/429 only when they are rate limits (retry-after, or no remaining quota).
 */
export function retryDelayMs(
  error: unknown,
  retry: number,
  now: number = Date.now(),
): number | undefined {
  const { status, response } = (error ?? {}) as HttpishError;
  const headers = response?.headers ?? {};
  const retryAfter = Number(headers['retry-after']);
  const backoff = Math.min(1000 * 2 ** retry, 30_000);
  if (status === undefined) return undefined;
  if (status >= 500) {
    return Number.isFinite(retryAfter) && retryAfter >= 0
      ? retryAfter * 1000
      : backoff;
  }
  if (status === 403 || status === 429) {
    if (Number.isFinite(retryAfter) && retryAfter >= 0)
      return retryAfter * 1000;
    if (String(headers['x-ratelimit-remaining']) === '0') {
      const reset = Number(headers['x-ratelimit-reset']);
      return Number.isFinite(reset)
        ? Math.max(reset * 1000 - now, 1000)
        : backoff;
    }
    return status === 429 ? backoff : undefined;
  }
  return undefined;
}

/** Retries every request of this Octokit on server errors and rate limits. */
export function installRetry(
  octokit: Octokit,
  options: RetryOptions = {},
): void {
  const sleep = options.sleep ?? realSleep;
  const maxRetries = options.maxRetries ?? 4;
  const maxDelayMs = options.maxDelayMs ?? 60_000;
  octokit.hook.wrap('request', async (request, requestOptions) => {
    for (let retry = 0; ; retry++) {
      try {
        return await request(requestOptions);
      } catch (error) {
        const delay = retryDelayMs(error, retry, options.now?.());
        if (delay === undefined || retry >= maxRetries || delay > maxDelayMs) {
          throw error;
        }
        // The URL template only: no query string, no headers, so no credential can reach the log.
        options.logger?.warn(
          `GitHub answered ${(error as HttpishError).status} to ${
            requestOptions.method
          } ${requestOptions.url}; retrying in ${delay} ms`,
        );
        await sleep(delay);
      }
    }
  });
}

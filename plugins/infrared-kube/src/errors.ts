import { scrubSecrets } from '@infrared-clusters/plugin-infrared-common';

/**
 * Errors from the Kubernetes API, reduced to what callers decide on (the HTTP code and the Status
 * reason) and a message that never carries a request body, a header or a credential.
 *
 * @public
 */
export class KubeApiError extends Error {
  readonly name = 'KubeApiError';
  constructor(
    /** HTTP status code of the answer; 0 when no answer came (network, TLS, timeout). */
    readonly code: number,
    /** The Status reason (NotFound, AlreadyExists, Conflict, Forbidden, Invalid ...) or a network error code. */
    readonly reason: string,
    message: string,
  ) {
    // Kubernetes may echo what it was sent (a Secret's data in an Invalid answer, a header).
    super(scrubSecrets(message));
  }
}

const MAX_MESSAGE = 600;

function statusOf(body: unknown): { reason?: string; message?: string } {
  let value: unknown = body;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return {};
    }
  }
  if (typeof value !== 'object' || value === null) return {};
  const status = value as Record<string, unknown>;
  return {
    reason: typeof status.reason === 'string' ? status.reason : undefined,
    message: typeof status.message === 'string' ? status.message : undefined,
  };
}

const REASON_BY_CODE: Record<number, string> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  405: 'MethodNotAllowed',
  409: 'Conflict',
  410: 'Gone',
  422: 'Invalid',
  429: 'TooManyRequests',
  500: 'InternalError',
  503: 'ServiceUnavailable',
  504: 'Timeout',
};

/**
 * Converts whatever `@kubernetes/client-node` threw (an ApiException with the Status body, a
 * node-fetch FetchError, an AbortError) into a KubeApiError. `what` says which request failed,
 * e.g. `GET secrets infrared/cluster-edge-kubeconfig`.
 *
 * @public
 */
export function toKubeApiError(error: unknown, what: string): KubeApiError {
  if (error instanceof KubeApiError) return error;
  const e = error as {
    code?: unknown;
    body?: unknown;
    name?: string;
    type?: string;
    errno?: unknown;
  };
  if (typeof e?.code === 'number' && e.code >= 100) {
    const status = statusOf(e.body);
    const reason = status.reason ?? REASON_BY_CODE[e.code] ?? `Http${e.code}`;
    const detail = (status.message ?? reason).slice(0, MAX_MESSAGE);
    return new KubeApiError(e.code, reason, `${what}: ${detail}`);
  }
  if (e?.name === 'AbortError' || e?.type === 'aborted') {
    return new KubeApiError(0, 'Timeout', `${what}: no answer in time`);
  }
  let code: string | undefined;
  if (typeof e?.code === 'string') code = e.code;
  else if (typeof e?.errno === 'string') code = e.errno;
  if (code) return new KubeApiError(0, code, `${what}: ${code}`);
  // Not an answer and not a network error: a bug or a response that could not be read.
  const detail = String((error as Error)?.message ?? error).slice(
    0,
    MAX_MESSAGE,
  );
  return new KubeApiError(0, 'ClientError', `${what}: ${detail}`);
}

/** @public */
export const isNotFound = (e: unknown) =>
  e instanceof KubeApiError && e.code === 404;
/** @public */
export const isAlreadyExists = (e: unknown) =>
  e instanceof KubeApiError && e.code === 409 && e.reason === 'AlreadyExists';
/**
 * A resourceVersion precondition failed: re-read and try again.
 *
 * @public
 */
export const isConflict = (e: unknown) =>
  e instanceof KubeApiError && e.code === 409 && e.reason !== 'AlreadyExists';

/** Times a call is sent in all while the API server answers 429 Too Many Requests. */
const TOO_MANY_REQUESTS_ATTEMPTS = 4;
/** The longest Retry-After honoured, in seconds. */
const MAX_RETRY_AFTER_S = 5;

/**
 * How long to wait before sending a call again: only after a 429, which says the API server did
 * not run it (e.g. `storage is (re)initializing` just after it started), so any verb may be sent
 * again; after its Retry-After (1 s when absent, at most MAX_RETRY_AFTER_S), as client-go does.
 */
function retryAfterMs(error: unknown): number | undefined {
  const e = error as { code?: unknown; headers?: Record<string, string> };
  if (e?.code !== 429) return undefined;
  const header = Object.entries(e.headers ?? {}).find(
    ([key]) => key.toLowerCase() === 'retry-after',
  )?.[1];
  const seconds = Number(header ?? 1);
  return Number.isFinite(seconds) && seconds >= 0
    ? Math.min(seconds, MAX_RETRY_AFTER_S) * 1000
    : 1000;
}

/**
 * Runs one API call; what it throws becomes a KubeApiError that names `what`. A 429 answer is
 * sent again after its Retry-After, at most TOO_MANY_REQUESTS_ATTEMPTS times in all.
 *
 * @public
 */
export async function kubeCall<T>(
  what: string,
  fn: () => Promise<T>,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (e) {
      const wait =
        attempt < TOO_MANY_REQUESTS_ATTEMPTS ? retryAfterMs(e) : undefined;
      if (wait === undefined) throw toKubeApiError(e, what);
      await new Promise(r => setTimeout(r, wait));
    }
  }
}

/**
 * The answer, or undefined when the object is not there (404).
 *
 * @public
 */
export async function orUndefined<T>(p: Promise<T>): Promise<T | undefined> {
  try {
    return await p;
  } catch (e) {
    if (isNotFound(e)) return undefined;
    throw e;
  }
}

/**
 * Runs `fn` again (it re-reads what it writes) while it fails with a resourceVersion conflict,
 * at most `attempts` times in all.
 *
 * @public
 */
export async function retryOnConflict<T>(
  fn: (attempt: number) => Promise<T>,
  attempts = 4,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn(attempt);
    } catch (e) {
      if (!isConflict(e) || attempt >= attempts) throw e;
      await new Promise(r => setTimeout(r, Math.random() * 20 * attempt));
    }
  }
}

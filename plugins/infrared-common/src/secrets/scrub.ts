/**
 * The one scrubber for text that may carry a credential: error messages from Kubernetes, git and
 * GitHub on their way to a status condition, a log line or an API response.
 */

/**
 * What a scrubbed credential becomes.
 *
 * @public
 */
export const SCRUBBED = '[redacted]';

/** PEM blocks (a key or a certificate pasted into a message). */
const PEM = /-----BEGIN [A-Z0-9 ]+-----[\s\S]*?(?:-----END [A-Z0-9 ]+-----|$)/g;

/** Base64 of a PEM block: "-----BEGIN" encodes to LS0tLS1CRUdJTi at any of its three offsets. */
const BASE64_PEM =
  /(?:LS0tLS1CRUdJTi|0tLS0tQkVHSU4|tLS0tLUJFR0lO)[A-Za-z0-9+/=\r\n]*/g;

/** The user information of a URL (`https://user:token@host`), for any scheme. */
const URL_USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@"'<>]+@/gi;

/** `Authorization: Bearer <token>` and `Basic <credentials>`, wherever they are echoed. */
const AUTH_SCHEME = /\b(Bearer|Basic)\s+[A-Za-z0-9\-._~+/]{8,}=*/gi;

/** A JSON Web Token (ServiceAccount tokens are): three base64url parts, the first `{"`. */
const JWT = /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*/g;

/** GitHub's token formats. */
const GITHUB_TOKEN =
  /\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})\b/g;

/**
 * `key: value`, `key=value` and `"key": "value"` for the keys that hold credentials: token fields,
 * GIT_TOKEN-like variables, passwords, client key data (YAML, JSON, env and query styles).
 */
const SECRET_FIELD =
  /(["']?\b[A-Za-z0-9_-]*?(?:token|password|passwd|secret|client-key-data|keyData|key-data|api[_-]?key|private[_-]?key)["']?\s*[:=]\s*)(?!\[redacted\])("[^"]{8,}"|'[^']{8,}'|[^\s"',;&}\]]{8,})/gi;

/**
 * Replaces every credential in a text by `[redacted]`: the `known` values (at least 4 characters,
 * as given and base64-encoded), then whatever has the shape of one (PEM and base64 PEM blocks,
 * URL user information, bearer and basic credentials, JWTs, GitHub tokens, token/password/key
 * fields with a value of 8 characters or more). Keeps the rest, so the message still says what
 * failed.
 *
 * @public
 */
export function scrubSecrets(
  text: string,
  known: Iterable<string> = [],
): string {
  let out = text;
  const values = [...known].filter(v => typeof v === 'string' && v.length >= 4);
  const withEncoded = values.flatMap(v => [v, toBase64(v)]);
  withEncoded.sort((a, b) => b.length - a.length);
  for (const value of withEncoded) out = out.split(value).join(SCRUBBED);
  return out
    .replace(PEM, SCRUBBED)
    .replace(BASE64_PEM, SCRUBBED)
    .replace(URL_USERINFO, `$1${SCRUBBED}@`)
    .replace(AUTH_SCHEME, `$1 ${SCRUBBED}`)
    .replace(JWT, SCRUBBED)
    .replace(GITHUB_TOKEN, SCRUBBED)
    .replace(SECRET_FIELD, `$1${SCRUBBED}`);
}

function toBase64(value: string): string {
  const bytes = new TextEncoder().encode(value);
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
}

/**
 * The message of whatever was thrown, scrubbed.
 *
 * @public
 */
export function scrubbedMessage(
  error: unknown,
  known?: Iterable<string>,
): string {
  const message =
    error instanceof Error
      ? error.message
      : String((error as { message?: unknown })?.message ?? error);
  return scrubSecrets(message, known);
}

/**
 * Scrubs an error in place (its message, stack and cause's message), keeping its class and fields,
 * so an error handler that maps classes to HTTP statuses answers the same, without the secret.
 *
 * @public
 */
export function scrubError<T>(error: T, known?: Iterable<string>): T {
  if (!(error instanceof Error)) return error;
  const scrub = (e: Error) => {
    try {
      e.message = scrubSecrets(e.message, known);
      if (e.stack) e.stack = scrubSecrets(e.stack, known);
    } catch {
      // a frozen error: left as it is
    }
  };
  scrub(error);
  if (error.cause instanceof Error) scrub(error.cause);
  return error;
}

const REDACTED = '[redacted]';

/**
 * Takes credentials out of a message before it is shown: a value after `Bearer` or `Basic` (8
 * characters or more, so "basic auth" stays), anything shaped like a JWT (Argo CD's API tokens
 * are JWTs), and the value of a `token`, `password` or `secret` field. The frontend never holds
 * Argo CD's token, so it cannot look for that value; it removes every value of these shapes.
 */
export function redactCredentials(text: string): string {
  return text
    .replace(/\b(Bearer|Basic)\s+[\w.~+/=-]{8,}/gi, `$1 ${REDACTED}`)
    .replace(/\beyJ[\w-]*\.[\w-]+\.[\w-]*/g, REDACTED)
    .replace(
      /\b((?:[\w-]*token|password|secret)["']?\s*[:=]\s*["']?)[^\s"',;()[\]{}]+/gi,
      `$1${REDACTED}`,
    );
}

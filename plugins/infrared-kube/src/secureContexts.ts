import { createHash } from 'node:crypto';
import tls from 'node:tls';

/** The TLS options that make a SecureContext (trust, credential, protocol): what connections may share. */
const CONTEXT_FIELDS = [
  'ca',
  'cert',
  'key',
  'pfx',
  'passphrase',
  'ciphers',
  'minVersion',
  'maxVersion',
  'secureProtocol',
  'crl',
  'ecdhCurve',
  'sigalgs',
] as const;

/** The options of one connection, not of its context: how the server's certificate is checked. */
export const CONNECTION_TLS_FIELDS = [
  'rejectUnauthorized',
  'servername',
  'checkServerIdentity',
] as const;

function contextOptions(options: Record<string, unknown>) {
  const chosen: Record<string, unknown> = {};
  for (const field of CONTEXT_FIELDS) {
    if (options[field] !== undefined) chosen[field] = options[field];
  }
  return chosen;
}

function fingerprint(options: Record<string, unknown>): string {
  const hash = createHash('sha256');
  for (const [field, value] of Object.entries(options)) {
    hash.update(`${field}\0`);
    for (const part of Array.isArray(value) ? value : [value]) {
      hash.update(
        Buffer.isBuffer(part) || typeof part === 'string'
          ? part
          : JSON.stringify(part),
      );
      hash.update('\0');
    }
  }
  return hash.digest('hex');
}

/**
 * One SecureContext per distinct CA, client credential and protocol options, shared by every
 * kept connection that uses them: a context holds its own parsed CA store and key, about 36 KB of
 * native memory each (issue 25: 1,000 clusters reached with one CA and credential made 1,000 of
 * them). Held weakly: a context goes with the last connection that uses it.
 */
export class SecureContexts {
  private readonly contexts = new Map<string, WeakRef<tls.SecureContext>>();
  private readonly forgotten = new FinalizationRegistry<string>(key => {
    if (!this.contexts.get(key)?.deref()) this.contexts.delete(key);
  });

  /** The context of these TLS options (their context fields): made once while any connection holds it. */
  contextFor(options: Record<string, unknown>): tls.SecureContext {
    const chosen = contextOptions(options);
    const key = fingerprint(chosen);
    const known = this.contexts.get(key)?.deref();
    if (known) return known;
    const context = tls.createSecureContext(chosen);
    this.contexts.set(key, new WeakRef(context));
    this.forgotten.register(context, key);
    return context;
  }

  /** How many contexts are alive (for tests and benches). */
  get size(): number {
    let alive = 0;
    for (const ref of this.contexts.values()) if (ref.deref()) alive++;
    return alive;
  }
}

/** The process's shared contexts, used by every KeptConnection. */
export const secureContexts = new SecureContexts();

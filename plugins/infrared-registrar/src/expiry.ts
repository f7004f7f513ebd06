import { X509Certificate } from 'node:crypto';
import { StringMemo } from './memo';
import type { CredentialExpiry } from './types';

/** Certificate notAfter by certData (undefined when unreadable). */
const notAfters = new StringMemo<{ at?: number }>();

function certNotAfter(certData: string): number | undefined {
  return notAfters.get(certData, () => {
    try {
      const pem = Buffer.from(certData, 'base64').toString('utf8');
      if (!pem.includes('-----BEGIN')) return {};
      const at = new Date(new X509Certificate(pem).validTo).getTime();
      return Number.isNaN(at) ? {} : { at };
    } catch {
      return {};
    }
  }).at;
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/**
 * How long the credential of a written Argo CD cluster Secret has left, as one expiry bucket.
 * Reads the `config` Argo CD holds (not the source kubeconfig: the two differ exactly when a
 * registration stopped being refreshed). Only the client certificate is decoded, never the key.
 *
 * @public
 */
export function credentialExpiry(
  config: string | undefined,
  now: Date,
): { bucket: CredentialExpiry; notAfter?: Date } {
  if (!config || !config.trim()) return { bucket: 'absent' };
  let parsed: any;
  try {
    parsed = JSON.parse(config);
  } catch {
    return { bucket: 'unreadable' };
  }
  if (!parsed || typeof parsed !== 'object') return { bucket: 'unreadable' };
  // Exec first: Argo CD prefers it over TLS credentials when both are present.
  if (parsed.awsAuthConfig || parsed.execProviderConfig)
    return { bucket: 'exec' };
  const certData = parsed.tlsClientConfig?.certData;
  if (!certData) return { bucket: 'token' };
  const at = certNotAfter(String(certData));
  if (at === undefined) return { bucket: 'unreadable' };
  const notAfter = new Date(at);
  return { bucket: expiryBucketAt(notAfter, now), notAfter };
}

/** The bucket of a certificate that is valid until `notAfter`, at `now`. */
export function expiryBucketAt(notAfter: Date, now: Date): CredentialExpiry {
  const left = notAfter.getTime() - now.getTime();
  if (left <= 0) return 'expired';
  if (left < DAY) return 'lt_24h';
  if (left < 7 * DAY) return 'lt_7d';
  if (left < 30 * DAY) return 'lt_30d';
  return 'ok';
}

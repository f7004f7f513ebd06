import type { RegistrarSecret } from './types';

/** One data key of a Secret read back from the API server, decoded; stringData wins as the server does. */
export function secretValue(
  secret: Pick<RegistrarSecret, 'data' | 'stringData'>,
  key: string,
): string | undefined {
  const plain = secret.stringData?.[key];
  if (plain !== undefined) return plain;
  const b64 = secret.data?.[key];
  return b64 === undefined
    ? undefined
    : Buffer.from(b64, 'base64').toString('utf8');
}

export const b64 = (text: string) =>
  Buffer.from(text, 'utf8').toString('base64');

/** The object as the API server stores it: stringData folded into base64 data. */
export function withData(secret: RegistrarSecret): RegistrarSecret {
  if (!secret.stringData) return secret;
  const { stringData, ...rest } = secret;
  const data = { ...(secret.data ?? {}) };
  for (const [k, v] of Object.entries(stringData)) data[k] = b64(v);
  return { ...rest, data };
}

/** A deep copy (Secrets are plain JSON). */
export function cloneSecret(secret: RegistrarSecret): RegistrarSecret {
  return JSON.parse(JSON.stringify(secret));
}

/** The server of an Argo CD cluster Secret as Argo CD keys it: trailing slashes trimmed. */
export function secretServer(secret: RegistrarSecret): string {
  return (secretValue(secret, 'server') ?? '').trim().replace(/\/+$/, '');
}

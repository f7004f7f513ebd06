import type { FieldError } from '../fieldErrors';
import { convertExec, execCommandName } from './exec';
import { Entry, isMapping, readBase64, readString } from './read';
import type { ArgoClusterConfig, CredentialKind } from './types';

/**
 * The reason every refused credential plugin or token file shares.
 *
 * @public
 */
export const STORABLE_CREDENTIAL_REASON =
  'because Argo CD needs a credential it can store';
const FIX =
  'give the user a token, or client-certificate-data and client-key-data';

export interface UserPart {
  kind: CredentialKind;
  /** The credential fields of Argo CD's config (TLS settings come from the cluster). */
  credential: Omit<ArgoClusterConfig, 'tlsClientConfig' | 'proxyUrl'> & {
    certData?: string;
    keyData?: string;
  };
  execCommand?: string;
}

function refuseFilePaths(
  u: Entry['body'],
  field: string,
  errors: FieldError[],
) {
  for (const key of ['client-certificate', 'client-key']) {
    const path = readString(u, key, field, errors);
    if (path) {
      errors.push({
        field: `${field}.${key}`,
        message: `${key} is a file path ("${path}"), which Infrared can't read: put it inline as ${key}-data (kubectl config view --raw --flatten does)`,
      });
    }
  }
  if (readString(u, 'tokenFile', field, errors)) {
    errors.push({
      field: `${field}.tokenFile`,
      message: `tokenFile is refused ${STORABLE_CREDENTIAL_REASON}: put the token inline as token`,
    });
  }
  if (u['auth-provider'] !== undefined && u['auth-provider'] !== null) {
    const ap = u['auth-provider'];
    const name =
      isMapping(ap) && typeof ap.name === 'string' ? ` ("${ap.name}")` : '';
    errors.push({
      field: `${field}.auth-provider`,
      message: `auth-provider plugins${name} are refused ${STORABLE_CREDENTIAL_REASON}: ${FIX}`,
    });
  }
}

/**
 * Reads the chosen user's credential. File paths, token files and auth-provider are refused
 * whatever else the user carries; otherwise client certificate + key, then token, then exec.
 */
export function inspectUser(
  entry: Entry,
  prefix: string,
  allowExec: boolean,
  errors: FieldError[],
): UserPart | undefined {
  const field = `${prefix}.users[${entry.index}].user`;
  const u = entry.body;
  const before = errors.length;
  refuseFilePaths(u, field, errors);
  const certData = readBase64(u, 'client-certificate-data', field, errors);
  const keyData = readBase64(u, 'client-key-data', field, errors);
  const token = readString(u, 'token', field, errors)?.trim();
  const given = (key: string) =>
    u[key] !== undefined && u[key] !== null && u[key] !== '';
  // eslint-disable-next-line no-control-regex
  if (token && /[\x00-\x08\x0a-\x1f\x7f]/.test(token)) {
    errors.push({
      field: `${field}.token`,
      message:
        'token holds a line break or another control character, which no HTTP header may carry: client-go (kubectl, Argo CD) fails every request with it; put the token on one line',
    });
  }
  if (token && (given('username') || given('password'))) {
    errors.push({
      field: `${field}.${given('username') ? 'username' : 'password'}`,
      message:
        'the user has a token and a username/password, which Argo CD (and kubectl, client-go) refuse: "username/password or bearer token may be set, but not both"; remove username and password (Infrared uses the token)',
    });
  }
  if (errors.length > before) return undefined;

  if (certData && keyData) {
    return { kind: 'client-certificate', credential: { certData, keyData } };
  }
  if (token) return { kind: 'token', credential: { bearerToken: token } };
  if (u.exec !== undefined && u.exec !== null) {
    if (!allowExec) {
      const cmd = execCommandName(u.exec);
      errors.push({
        field: `${field}.exec`,
        message: `exec credential plugins${
          cmd ? ` ("${cmd}")` : ''
        } are refused ${STORABLE_CREDENTIAL_REASON}: ${FIX}`,
      });
      return undefined;
    }
    const converted = convertExec(u.exec, `${field}.exec`);
    if ('errors' in converted) {
      errors.push(...converted.errors);
      return undefined;
    }
    const { command, ...credential } = converted;
    return { kind: 'exec', credential, execCommand: command };
  }
  errors.push({
    field,
    message: noCredentialMessage(entry, !!certData, !!keyData, u),
  });
  return undefined;
}

function noCredentialMessage(
  entry: Entry,
  hasCert: boolean,
  hasKey: boolean,
  u: Entry['body'],
): string {
  const who = entry.name ? `user "${entry.name}"` : 'the user';
  if (hasCert !== hasKey) {
    const [has, lacks] = hasCert
      ? ['client-certificate-data', 'client-key-data']
      : ['client-key-data', 'client-certificate-data'];
    return `${who} has ${has} but no ${lacks}: a client certificate needs both`;
  }
  const basic =
    u.username || u.password
      ? ' (username and password are not supported)'
      : '';
  return `${who} has no credential${basic}: ${FIX}`;
}

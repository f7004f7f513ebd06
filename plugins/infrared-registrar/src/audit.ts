import { credentialExpiry, expiryBucketAt } from './expiry';
import { registrarKeys } from './labels';
import type { RegistrarOptions } from './options';
import { secretValue } from './secrets';
import {
  CREDENTIAL_EXPIRY_BUCKETS,
  REGISTRATION_STATES,
  type RegistrarSecret,
  type RegistrationSeries,
  type RegistrationState,
} from './types';

/**
 * What an audit of the registrations found, for the metrics and the log.
 *
 * @public
 */
export interface RegistrarAudit {
  /** Every state × credential_expiry series, zeros included, so a cleared series reads 0. */
  registrations: RegistrationSeries[];
  /** Names of owned Secrets that record no source namespace: no reconcile key reaches them. */
  unrouted: string[];
}

/**
 * A Secret object's credential expiry, decoded once: the view and the data cache hand the same
 * objects to pass after pass (decoding 10,000 configs twice a pass was most of a scoped pass).
 */
const expiries = new WeakMap<
  RegistrarSecret,
  ReturnType<typeof credentialExpiry>
>();

function expiryOf(s: RegistrarSecret, now: Date) {
  let found = expiries.get(s);
  if (!found) {
    found = credentialExpiry(secretValue(s, 'config'), now);
    expiries.set(s, found);
  }
  return found.notAfter ? expiryBucketAt(found.notAfter, now) : found.bucket;
}

/** Whether a Secret is one this registrar instance owns. */
export function isOwned(
  secret: RegistrarSecret,
  options: Pick<RegistrarOptions, 'labelPrefix' | 'managedBy'>,
): boolean {
  return (
    secret.metadata.labels?.[registrarKeys(options.labelPrefix).managedBy] ===
    options.managedBy
  );
}

export function registrationState(
  secret: RegistrarSecret,
  labelPrefix: string,
): RegistrationState {
  return secret.metadata.labels?.[registrarKeys(labelPrefix).orphanedSecretType]
    ? 'demoted'
    : 'active';
}

/**
 * The audit a pass ends with: gauges from the owned Secrets in the target namespace.
 *
 * @public
 */
export function auditRegistrations(
  secrets: RegistrarSecret[],
  options: Pick<
    RegistrarOptions,
    'labelPrefix' | 'managedBy' | 'targetNamespace'
  >,
  now: Date,
): RegistrarAudit {
  const keys = registrarKeys(options.labelPrefix);
  const counts = new Map<string, number>();
  const unrouted: string[] = [];
  for (const s of secrets) {
    if (
      s.metadata.namespace &&
      s.metadata.namespace !== options.targetNamespace
    )
      continue;
    if (!isOwned(s, options)) continue;
    const state = registrationState(s, options.labelPrefix);
    const bucket = expiryOf(s, now);
    const id = `${state}|${bucket}`;
    counts.set(id, (counts.get(id) ?? 0) + 1);
    if (!s.metadata.labels?.[keys.sourceNamespace])
      unrouted.push(s.metadata.name);
  }
  const registrations: RegistrationSeries[] = [];
  for (const state of REGISTRATION_STATES) {
    for (const bucket of CREDENTIAL_EXPIRY_BUCKETS) {
      registrations.push({
        state,
        credentialExpiry: bucket,
        value: counts.get(`${state}|${bucket}`) ?? 0,
      });
    }
  }
  return { registrations, unrouted: unrouted.sort() };
}

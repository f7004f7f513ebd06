/*
 * Why a probe of a cluster's API server failed: the reasons a human can act on, and the
 * classification of a failed request into one of them, with no credential in the message.
 */
import { KubeApiError, toKubeApiError } from './errors';

/**
 * Why a cluster could not be reached, in words a human can act on.
 *
 * @public
 */
export type ProbeFailureReason =
  /** Argo CD (client-go) would refuse the connection the cluster Secret describes. */
  | 'ArgoConnectionRefused'
  | 'Unauthorized'
  | 'Forbidden'
  | 'CertificateNotTrusted'
  | 'Unreachable'
  | 'Timeout'
  | 'ProbeFailed';

/** @public */
export type ProbeResult =
  | { ok: true; kubernetesVersion: string; nodes: number }
  | { ok: false; reason: ProbeFailureReason; message: string };

/**
 * A probe never waits longer than this for a cluster's API server.
 *
 * @public
 */
export const DEFAULT_PROBE_TIMEOUT_MS = 10_000;

const CERTIFICATE_ERRORS = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_SIGNATURE_FAILURE',
  'CERT_UNTRUSTED',
  'CERT_REJECTED',
  'INVALID_CA',
]);
const CERTIFICATE_DATE_ERRORS = new Set([
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
]);
const UNREACHABLE_ERRORS = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'ECONNRESET',
  'EPIPE',
  'EPROTO',
]);

/**
 * The request of a connectivity probe that failed: the server version, or the node list.
 *
 * @public
 */
export type ProbeStep = 'version' | 'nodes';
const STEP_ACTION: Record<ProbeStep, string> = {
  version: 'read /version (get on the non-resource URL /version)',
  nodes: 'list nodes (list on nodes, cluster-wide)',
};

/**
 * Turns a failed request to a cluster into a reason and a message without any credential in it.
 *
 * @public
 */
export function classifyProbeError(
  error: unknown,
  server: string,
  step: ProbeStep,
  timeoutMs = DEFAULT_PROBE_TIMEOUT_MS,
): { reason: ProbeFailureReason; message: string } {
  const e =
    error instanceof KubeApiError ? error : toKubeApiError(error, 'probe');
  const code = e.reason;
  if (e.code === 401) {
    return {
      reason: 'Unauthorized',
      message: `the API server at ${server} refused the kubeconfig's credential (401 Unauthorized): the token or client certificate is invalid, expired or revoked`,
    };
  }
  if (e.code === 403) {
    const detail = e.message.replace(/^[^:]*: /, '');
    return {
      reason: 'Forbidden',
      message: `the credential is accepted but may not ${STEP_ACTION[step]} (403 Forbidden: ${detail}): grant that permission to the kubeconfig's user`,
    };
  }
  if (e.code === 0 && CERTIFICATE_ERRORS.has(code)) {
    return {
      reason: 'CertificateNotTrusted',
      message: `the certificate of the API server at ${server} is not trusted (${code}): put the CA that signed it in the kubeconfig's certificate-authority-data`,
    };
  }
  if (e.code === 0 && CERTIFICATE_DATE_ERRORS.has(code)) {
    return {
      reason: 'CertificateNotTrusted',
      message: `the certificate of the API server at ${server} is not valid now (${code}): renew the API server's certificate`,
    };
  }
  if (e.code === 0 && code === 'ERR_TLS_CERT_ALTNAME_INVALID') {
    return {
      reason: 'CertificateNotTrusted',
      message: `the certificate of the API server at ${server} is not issued for that address (${code}): use an address the certificate names, or set tls-server-name in the kubeconfig`,
    };
  }
  if (e.code === 0 && (code === 'Timeout' || code === 'ETIMEDOUT')) {
    return {
      reason: 'Timeout',
      message: `no answer from the API server at ${server} within ${Math.round(
        timeoutMs / 1000,
      )} s: check the address and that the management cluster can reach it`,
    };
  }
  if (e.code === 0 && UNREACHABLE_ERRORS.has(code)) {
    return {
      reason: 'Unreachable',
      message: `cannot reach the API server at ${server} (${code}): check the address and that the management cluster can reach it`,
    };
  }
  if (e.code === 0 && /^(ERR_TLS|ERR_SSL|CERT_)/.test(code)) {
    return {
      reason: 'CertificateNotTrusted',
      message: `the TLS connection to the API server at ${server} failed (${code}): check the kubeconfig's certificate-authority-data and the server address`,
    };
  }
  const status = e.code ? `HTTP ${e.code} ${code}` : code;
  return {
    reason: 'ProbeFailed',
    message: `could not ${STEP_ACTION[step].replace(
      / \(.*\)$/,
      '',
    )} at ${server} (${status})`,
  };
}

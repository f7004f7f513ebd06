import { KubeApiError, toKubeApiError } from './errors';
import { classifyProbeError } from './probeErrors';

const SERVER = 'https://203.0.113.10:6443';
const system = (code: string) =>
  Object.assign(
    new Error(`request to ${SERVER}/version failed, reason: ${code}`),
    {
      name: 'FetchError',
      type: 'system',
      code,
      errno: code,
    },
  );
const http = (code: number, message: string) =>
  Object.assign(new Error(`HTTP-Code: ${code}`), {
    code,
    body: JSON.stringify({ kind: 'Status', message, reason: undefined }),
  });

describe('classifyProbeError', () => {
  it.each([
    [
      http(401, 'Unauthorized'),
      'version',
      'Unauthorized',
      /401 Unauthorized.*invalid, expired or revoked/,
    ],
    [
      http(
        403,
        'nodes is forbidden: User "system:serviceaccount:default:edge" cannot list resource "nodes"',
      ),
      'nodes',
      'Forbidden',
      /may not list nodes \(list on nodes, cluster-wide\).*cannot list resource "nodes"/,
    ],
    [http(403, 'forbidden'), 'version', 'Forbidden', /may not read \/version/],
    [
      system('UNABLE_TO_VERIFY_LEAF_SIGNATURE'),
      'version',
      'CertificateNotTrusted',
      /not trusted \(UNABLE_TO_VERIFY_LEAF_SIGNATURE\).*certificate-authority-data/,
    ],
    [
      system('SELF_SIGNED_CERT_IN_CHAIN'),
      'version',
      'CertificateNotTrusted',
      /not trusted/,
    ],
    [
      system('DEPTH_ZERO_SELF_SIGNED_CERT'),
      'version',
      'CertificateNotTrusted',
      /not trusted/,
    ],
    [
      system('ERR_TLS_CERT_ALTNAME_INVALID'),
      'version',
      'CertificateNotTrusted',
      /not issued for that address.*tls-server-name/,
    ],
    [
      system('CERT_HAS_EXPIRED'),
      'version',
      'CertificateNotTrusted',
      /not valid now/,
    ],
    [
      system('ECONNREFUSED'),
      'version',
      'Unreachable',
      /cannot reach .*203\.0\.113\.10:6443 \(ECONNREFUSED\)/,
    ],
    [system('ENOTFOUND'), 'version', 'Unreachable', /ENOTFOUND/],
    [system('EHOSTUNREACH'), 'version', 'Unreachable', /EHOSTUNREACH/],
    [system('ETIMEDOUT'), 'version', 'Timeout', /within 10 s/],
    [
      Object.assign(new Error('The user aborted a request.'), {
        name: 'AbortError',
        type: 'aborted',
      }),
      'nodes',
      'Timeout',
      /no answer/,
    ],
    [
      http(500, 'etcdserver: request timed out'),
      'nodes',
      'ProbeFailed',
      /could not list nodes .*HTTP 500/,
    ],
  ] as const)('%#: %s -> %s', (error, step, reason, message) => {
    const result = classifyProbeError(
      toKubeApiError(error, 'probe'),
      SERVER,
      step,
    );
    expect(result.reason).toBe(reason);
    expect(result.message).toMatch(message);
  });
});

describe('toKubeApiError', () => {
  it('keeps the code and the Status reason, and no body beyond its message', () => {
    const e = toKubeApiError(
      {
        code: 409,
        body: JSON.stringify({
          reason: 'AlreadyExists',
          message: 'secrets "x" already exists',
        }),
        headers: { authorization: 'Bearer no' },
      },
      'CREATE secret infrared/x',
    );
    expect(e).toBeInstanceOf(KubeApiError);
    expect(e).toMatchObject({ code: 409, reason: 'AlreadyExists' });
    expect(e.message).toBe(
      'CREATE secret infrared/x: secrets "x" already exists',
    );
  });

  it('names a reason after the code when the body has none', () => {
    expect(toKubeApiError({ code: 404, body: '' }, 'GET x')).toMatchObject({
      reason: 'NotFound',
    });
  });

  it('keeps the message of an error that is neither an answer nor a network error', () => {
    expect(toKubeApiError(new TypeError('boom'), 'GET x')).toMatchObject({
      code: 0,
      reason: 'ClientError',
      message: 'GET x: boom',
    });
  });
});

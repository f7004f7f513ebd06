import { credentialExpiry } from './expiry';
import { CERT_DATA, CERT_NOT_AFTER } from './__testUtils__/fixtures';

const cert = JSON.stringify({
  tlsClientConfig: { insecure: false, certData: CERT_DATA, keyData: 'x' },
});
const before = (ms: number) => new Date(CERT_NOT_AFTER.getTime() - ms);
const H = 3_600_000;

describe('credentialExpiry', () => {
  it.each([
    ['expired', new Date(CERT_NOT_AFTER.getTime() + 1000)],
    ['expired', CERT_NOT_AFTER],
    ['lt_24h', before(23 * H)],
    ['lt_7d', before(6 * 24 * H)],
    ['lt_30d', before(29 * 24 * H)],
    ['ok', before(31 * 24 * H)],
  ])('buckets the client certificate: %s', (bucket, now) => {
    expect(credentialExpiry(cert, now)).toEqual({
      bucket,
      notAfter: CERT_NOT_AFTER,
    });
  });

  it.each([
    ['absent', undefined],
    ['absent', '  '],
    ['unreadable', '{'],
    [
      'unreadable',
      JSON.stringify({ tlsClientConfig: { certData: 'bm90IGEgY2VydA==' } }),
    ],
    [
      'unreadable',
      JSON.stringify({
        tlsClientConfig: {
          certData: Buffer.from(
            '-----BEGIN CERTIFICATE-----\nxx\n-----END CERTIFICATE-----',
          ).toString('base64'),
        },
      }),
    ],
    [
      'token',
      JSON.stringify({
        bearerToken: 't',
        tlsClientConfig: { insecure: false },
      }),
    ],
    [
      'exec',
      JSON.stringify({
        tlsClientConfig: { certData: CERT_DATA },
        awsAuthConfig: { clusterName: 'x' },
      }),
    ],
    [
      'exec',
      JSON.stringify({
        tlsClientConfig: {},
        execProviderConfig: { command: 'argocd-k8s-auth' },
      }),
    ],
  ])('says %s', (bucket, config) => {
    expect(credentialExpiry(config, new Date()).bucket).toBe(bucket);
  });
});

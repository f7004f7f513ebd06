import { b64, selfSignedPem } from './__testUtils__/pki';
import { targetForArgo } from './target';

describe('targetForArgo', () => {
  const ca = selfSignedPem('ca');
  const client = selfSignedPem('client');
  const server = 'https://203.0.113.10:6443';
  const tls = { insecure: false, caData: b64(ca.cert) };

  it('hands a bearer token to the fetcher as one, with the server and CA Argo CD uses', () => {
    expect(
      targetForArgo({
        server,
        config: { bearerToken: 'tok', tlsClientConfig: tls },
      }),
    ).toEqual({
      url: server,
      caData: b64(ca.cert),
      skipTLSVerify: false,
      credential: { type: 'bearer token', token: 'tok' },
    });
  });

  it('hands a client certificate to the fetcher as PEM (its https agent takes cert and key)', () => {
    const target = targetForArgo({
      server,
      config: {
        tlsClientConfig: {
          ...tls,
          certData: b64(client.cert),
          keyData: b64(client.key),
        },
      },
    });
    expect(target).toMatchObject({
      credential: {
        type: 'x509 client certificate',
        cert: client.cert,
        key: client.key,
      },
    });
  });

  it('skips verification only where Argo CD does: insecure, or plain http', () => {
    expect(
      targetForArgo({
        server,
        config: { bearerToken: 't', tlsClientConfig: { insecure: true } },
      }),
    ).toMatchObject({ skipTLSVerify: true });
    expect(
      targetForArgo({
        server: 'http://127.0.0.1:8001',
        config: { bearerToken: 't', tlsClientConfig: { insecure: false } },
      }),
    ).toMatchObject({ skipTLSVerify: true });
  });

  it.each([
    [
      'a proxy',
      { bearerToken: 't', proxyUrl: 'http://proxy:3128', tlsClientConfig: tls },
      /proxy.*ClusterDetails has no proxy setting/,
    ],
    [
      'a TLS server name',
      { bearerToken: 't', tlsClientConfig: { ...tls, serverName: 'api' } },
      /tls-server-name.*ClusterDetails has no TLS server name/,
    ],
    [
      'no credential',
      { tlsClientConfig: tls },
      /neither a bearer token nor a client certificate/,
    ],
    [
      'half a client certificate',
      { tlsClientConfig: { ...tls, certData: b64(client.cert) } },
      /Argo CD would refuse this connection: config.tlsClientConfig.certData/,
    ],
  ])('refuses %s with the reason', (_, config, reason) => {
    const target = targetForArgo({ server, config } as any);
    expect(target).toEqual({ unusable: expect.stringMatching(reason) });
  });
});

import { serializeArgoConfig } from './argoConfig';

describe('serializeArgoConfig', () => {
  it('writes keys in a fixed order whatever the input order, dropping empty ones', () => {
    const json = serializeArgoConfig({
      tlsClientConfig: {
        serverName: 's',
        keyData: 'k',
        certData: 'c',
        caData: 'a',
        insecure: false,
      },
      bearerToken: 't',
      proxyUrl: '',
    });
    expect(json).toBe(
      '{"bearerToken":"t","tlsClientConfig":{"insecure":false,"caData":"a","certData":"c","keyData":"k","serverName":"s"}}',
    );
  });

  it('always writes insecure and sorts exec env like Go does', () => {
    const json = serializeArgoConfig({
      tlsClientConfig: {} as any,
      execProviderConfig: {
        apiVersion: 'client.authentication.k8s.io/v1beta1',
        env: { Z: '1', A: '2' },
        args: ['azure'],
        command: 'argocd-k8s-auth',
      },
    });
    expect(json).toBe(
      '{"tlsClientConfig":{"insecure":false},"execProviderConfig":{"command":"argocd-k8s-auth","args":["azure"],"env":{"A":"2","Z":"1"},"apiVersion":"client.authentication.k8s.io/v1beta1"}}',
    );
  });

  it("escapes <, > and & as Go's encoding/json does", () => {
    const json = serializeArgoConfig({
      bearerToken: 'a<b>&',
      tlsClientConfig: { insecure: true },
    });
    expect(json).toBe(
      '{"bearerToken":"a\\u003cb\\u003e\\u0026","tlsClientConfig":{"insecure":true}}',
    );
    expect(JSON.parse(json).bearerToken).toBe('a<b>&');
  });
});

import { generateKeyPairSync } from 'node:crypto';
import https from 'node:https';
import { HttpMethod, RequestContext } from '@kubernetes/client-node';
import type { ArgoClusterConfig } from '@infrared-clusters/plugin-infrared-common';
import {
  argoKubeConfig,
  ArgoConnectionRefusedError,
  nodeProxyUrl,
} from './argoClient';
import { KubeClient, kubeConfigFromText } from './client';
import { KubeClusterProber } from './clusterProber';

const SERVER = 'https://203.0.113.10:6443';
/** A real self-signed certificate (CN infrared-conformance), as CA and as client certificate. */
const CERT_PEM = `-----BEGIN CERTIFICATE-----
MIIBlTCCATugAwIBAgIUIzJSzvrJBOPMmIKtq9MUGMO5seAwCgYIKoZIzj0EAwIw
HzEdMBsGA1UEAwwUaW5mcmFyZWQtY29uZm9ybWFuY2UwIBcNMjYxMTMwMTg0MzU0
WhgPMjEyNjExMDYxODQzNTRaMB8xHTAbBgNVBAMMFGluZnJhcmVkLWNvbmZvcm1h
bmNlMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEDmB8t6jDpGM8imIBijB1gZ8u
QjSGpp9JwuNgreg+M8vP1hqXFa8GcpbS2Fp1nVhhW3zbZtsXJAatS7JAvMKP7qNT
MFEwHQYDVR0OBBYEFNOhf7Y6bbT5MhVzp3J54/xUJW1gMB8GA1UdIwQYMBaAFNOh
f7Y6bbT5MhVzp3J54/xUJW1gMA8GA1UdEwEB/wQFMAMBAf8wCgYIKoZIzj0EAwID
SAAwRQIgStdjAwa1s33+YYPkMPWJ8EUmhhJK9YeV8D8sABA2TIMCIQDqi+HaclIQ
MnDQpgk9T4ZV4XZ3vN0x1bJb1xuM0xBTiA==
-----END CERTIFICATE-----
`;
const CERT_DATA = Buffer.from(CERT_PEM).toString('base64');
const KEY_DATA = Buffer.from(
  generateKeyPairSync('ec', { namedCurve: 'prime256v1' })
    .privateKey.export({ type: 'pkcs8', format: 'pem' })
    .toString(),
).toString('base64');

const config = (
  tls: Partial<ArgoClusterConfig['tlsClientConfig']> = {},
  extra: Partial<ArgoClusterConfig> = {},
): ArgoClusterConfig => ({
  bearerToken: 'sa-token',
  ...extra,
  tlsClientConfig: { insecure: false, caData: CERT_DATA, ...tls },
});

/** What one request gets from the Argo CD connection: its agent (and agent options) and headers. */
async function applied(cfg: ArgoClusterConfig, server = SERVER) {
  const { authentication } = argoKubeConfig({ server, config: cfg });
  const context = new RequestContext(`${server}/version`, HttpMethod.GET);
  await authentication.applySecurityAuthentication(context);
  const agent = context.getAgent() as any;
  return { agent, options: agent.options, headers: context.getHeaders() };
}

describe('argoKubeConfig: each request connects as Argo CD will', () => {
  it('verifies the certificate with the CA explicitly, never by NODE_TLS_REJECT_UNAUTHORIZED', async () => {
    const { agent, options, headers } = await applied(
      config({ serverName: 'api.edge.internal' }),
    );
    expect(agent).toBeInstanceOf(https.Agent);
    expect(options.rejectUnauthorized).toBe(true);
    expect(String(options.ca)).toBe(CERT_PEM);
    expect(options.servername).toBe('api.edge.internal');
    expect(headers.Authorization).toBe('Bearer sa-token');
  });

  it('skips verification only when the config says insecure', async () => {
    const { options } = await applied(
      config({ insecure: true, caData: undefined }),
    );
    expect(options.rejectUnauthorized).toBe(false);
    expect(options.ca).toBeUndefined();
  });

  it('presents the client certificate and no token when the config has one', async () => {
    const { options, headers } = await applied(
      config(
        { certData: CERT_DATA, keyData: KEY_DATA },
        { bearerToken: undefined },
      ),
    );
    expect(String(options.cert)).toBe(CERT_PEM);
    expect(String(options.key)).toMatch(/^-----BEGIN PRIVATE KEY-----/);
    expect(headers.Authorization).toBeUndefined();
  });

  it('tunnels through an http proxy, still verifying the server by the CA and server name', async () => {
    const { agent, options } = await applied(
      config(
        { serverName: 'api.edge.internal' },
        { proxyUrl: 'http://127.0.0.1:3128' },
      ),
    );
    expect(agent.constructor.name).toBe('HttpsProxyAgent');
    expect(agent.proxy.href).toBe('http://127.0.0.1:3128/');
    expect(options.rejectUnauthorized).toBe(true);
    expect(options.servername).toBe('api.edge.internal');
  });

  it('lets a socks5 proxy resolve the server name, as Go does', async () => {
    const { agent, options } = await applied(
      config({}, { proxyUrl: 'socks5://127.0.0.1:1080' }),
    );
    expect(agent.constructor.name).toBe('SocksProxyAgent');
    expect(agent.shouldLookup).toBe(false);
    expect(agent.proxy).toMatchObject({
      host: '127.0.0.1',
      port: 1080,
      type: 5,
    });
    expect(options.rejectUnauthorized).toBe(true);
  });

  it.each([
    ['socks5://proxy.example:1080', 'socks5h://proxy.example:1080'],
    ['HTTP://Proxy.Example:3128', 'http://proxy.example:3128/'],
    ['https://proxy.example', 'https://proxy.example/'],
    [undefined, undefined],
  ])('gives client-node the proxy %s as %s', (from, to) => {
    expect(nodeProxyUrl(from)).toBe(to);
  });

  it('refuses what client-go refuses, naming the Secret field', () => {
    expect(() =>
      argoKubeConfig({ server: SERVER, config: config({ insecure: true }) }),
    ).toThrow(ArgoConnectionRefusedError);
    expect(() =>
      argoKubeConfig({
        server: SERVER,
        config: config({}, { proxyUrl: 'socks5h://127.0.0.1:1080' }),
      }),
    ).toThrow(/config\.proxyUrl: .*scheme socks5h/);
  });
});

describe('KubeClusterProber without reaching any server', () => {
  const prober = new KubeClusterProber(
    new KubeClient(
      kubeConfigFromText(
        'apiVersion: v1\nkind: Config\nclusters: [{name: m, cluster: {server: "https://127.0.0.1:1"}}]\nusers: [{name: m, user: {token: x}}]\ncontexts: [{name: m, context: {cluster: m, user: m}}]\ncurrent-context: m\n',
      ),
    ),
  );

  it('is ArgoConnectionRefused for insecure with a CA, as client-go refuses it', async () => {
    expect(
      await prober.probe({
        kind: 'argo',
        server: SERVER,
        config: config({ insecure: true }),
      }),
    ).toEqual({
      ok: false,
      reason: 'ArgoConnectionRefused',
      message: expect.stringMatching(
        /^Argo CD would refuse this connection: config.tlsClientConfig.insecure: .*"specifying a root certificates file with the insecure flag is not allowed"/,
      ),
    });
  });

  it('probes the connection a kubeconfig Cluster carries as argo, not any other server', async () => {
    expect(
      await prober.probe({
        kind: 'kubeconfig',
        argo: { server: SERVER, config: config({ insecure: true }) },
      }),
    ).toMatchObject({ ok: false, reason: 'ArgoConnectionRefused' });
  });

  it('never runs an exec credential', async () => {
    expect(
      await prober.probe({
        kind: 'argo',
        server: SERVER,
        config: config({}, { awsAuthConfig: { clusterName: 'prod' } }),
      }),
    ).toEqual({
      ok: false,
      reason: 'ProbeFailed',
      message: expect.stringMatching(/exec credential cannot be used/),
    });
  });
});

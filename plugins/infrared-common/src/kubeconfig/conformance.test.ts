import { generateKeyPairSync } from 'crypto';
import { serializeArgoConfig } from './argoConfig';
import { argoConnectionFor, argoConnectionProblems } from './argoConnection';
import { inspectKubeconfig } from './inspect';
import { single } from './testing';
import type { ArgoClusterConfig, KubeconfigAccepted } from './types';

/**
 * Conformance with Argo CD: each kubeconfig shape and the `config` JSON its Argo CD cluster
 * Secret gets, or the refusal, by the rules client-go applies when Argo CD builds its client
 * (rest.Config, transport.TLSConfigFor, the round trippers, the exec authenticator) and Argo CD's
 * own ParseProxyUrl. Every accepted config must also pass `argoConnectionProblems`, the same rules
 * read on the Secret's side. kubectl (client-go) gives the same answers for each refused row.
 */

const b64 = (s: string) => Buffer.from(s).toString('base64');

/** A real self-signed certificate (CN infrared-conformance, valid until 2126). */
const CA_PEM = `-----BEGIN CERTIFICATE-----
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
const CA = b64(CA_PEM);
const CERT = CA;
/** A private key made for this run (PKCS#8 PEM), never stored. */
const KEY = b64(
  generateKeyPairSync('ec', { namedCurve: 'prime256v1' })
    .privateKey.export({ type: 'pkcs8', format: 'pem' })
    .toString(),
);
const SERVER = 'https://203.0.113.10:6443';
const CLUSTER = 'kubeconfig.clusters[0].cluster';
const USER = 'kubeconfig.users[0].user';
const V1BETA1 = 'client.authentication.k8s.io/v1beta1';

type Shape = {
  cluster?: Record<string, unknown>;
  user?: Record<string, unknown>;
  allowExec?: boolean;
};
type Expected = string | { field: string; message: RegExp };

const tokenWith = (cluster: Record<string, unknown>): Shape => ({
  cluster: { server: SERVER, ...cluster },
  user: { token: 't' },
});
const eksExec = (apiVersion?: string): Shape => ({
  cluster: { server: SERVER, 'certificate-authority-data': CA },
  user: {
    exec: {
      ...(apiVersion ? { apiVersion } : {}),
      command: 'aws',
      args: ['eks', 'get-token', '--cluster-name', 'prod'],
    },
  },
  allowExec: true,
});
const EKS_CONFIG = `{"tlsClientConfig":{"insecure":false,"caData":"${CA}"},"awsAuthConfig":{"clusterName":"prod"}}`;

const TABLE: Array<[string, Shape, Expected]> = [
  // TLS: transport.TLSConfigFor.
  [
    'a CA alone',
    tokenWith({ 'certificate-authority-data': CA }),
    `{"bearerToken":"t","tlsClientConfig":{"insecure":false,"caData":"${CA}"}}`,
  ],
  [
    'insecure alone',
    tokenWith({ 'insecure-skip-tls-verify': true }),
    '{"bearerToken":"t","tlsClientConfig":{"insecure":true}}',
  ],
  [
    'neither a CA nor insecure (the system roots)',
    tokenWith({}),
    '{"bearerToken":"t","tlsClientConfig":{"insecure":false}}',
  ],
  [
    'insecure: false with a CA',
    tokenWith({
      'insecure-skip-tls-verify': false,
      'certificate-authority-data': CA,
    }),
    `{"bearerToken":"t","tlsClientConfig":{"insecure":false,"caData":"${CA}"}}`,
  ],
  [
    'insecure together with a CA',
    tokenWith({
      'insecure-skip-tls-verify': true,
      'certificate-authority-data': CA,
    }),
    {
      field: `${CLUSTER}.insecure-skip-tls-verify`,
      message:
        /Argo CD.*"specifying a root certificates file with the insecure flag is not allowed"/,
    },
  ],
  [
    'tls-server-name with a CA',
    tokenWith({
      'certificate-authority-data': CA,
      'tls-server-name': 'api.edge.internal',
    }),
    `{"bearerToken":"t","tlsClientConfig":{"insecure":false,"caData":"${CA}","serverName":"api.edge.internal"}}`,
  ],
  [
    'tls-server-name with insecure',
    tokenWith({
      'insecure-skip-tls-verify': true,
      'tls-server-name': 'api.edge.internal',
    }),
    '{"bearerToken":"t","tlsClientConfig":{"insecure":true,"serverName":"api.edge.internal"}}',
  ],
  [
    'a CA in base64 broken into lines (Go skips line breaks)',
    tokenWith({
      'certificate-authority-data': `${CA.slice(0, 64)}\n${CA.slice(64)}`,
    }),
    `{"bearerToken":"t","tlsClientConfig":{"insecure":false,"caData":"${CA.slice(
      0,
      64,
    )}\\n${CA.slice(64)}"}}`,
  ],
  [
    'a CA in base64 with a space (a folded YAML line)',
    tokenWith({
      'certificate-authority-data': `${CA.slice(0, 64)} ${CA.slice(64)}`,
    }),
    {
      field: `${CLUSTER}.certificate-authority-data`,
      message: /not base64 as kubectl and Argo CD read it/,
    },
  ],
  [
    'a CA in base64 without its padding',
    tokenWith({ 'certificate-authority-data': 'Q0EtUEVNCg' }),
    {
      field: `${CLUSTER}.certificate-authority-data`,
      message: /padded with =/,
    },
  ],

  // Client certificates: transport.TLSConfigFor (HasCertAuth needs both) and precedence.
  [
    'a client certificate and key',
    {
      cluster: { server: SERVER, 'certificate-authority-data': CA },
      user: { 'client-certificate-data': CERT, 'client-key-data': KEY },
    },
    `{"tlsClientConfig":{"insecure":false,"caData":"${CA}","certData":"${CERT}","keyData":"${KEY}"}}`,
  ],
  [
    'a client certificate without a key, alone',
    {
      cluster: { server: SERVER, 'certificate-authority-data': CA },
      user: { 'client-certificate-data': CERT },
    },
    {
      field: USER,
      message: /has client-certificate-data but no client-key-data/,
    },
  ],
  [
    'a client key without a certificate, alone',
    {
      cluster: { server: SERVER, 'certificate-authority-data': CA },
      user: { 'client-key-data': KEY },
    },
    {
      field: USER,
      message: /has client-key-data but no client-certificate-data/,
    },
  ],
  [
    'a client certificate without a key, and a token (the half certificate is not written)',
    {
      cluster: { server: SERVER, 'certificate-authority-data': CA },
      user: { 'client-certificate-data': CERT, token: 't' },
    },
    `{"bearerToken":"t","tlsClientConfig":{"insecure":false,"caData":"${CA}"}}`,
  ],
  [
    'a client certificate and a token (the certificate wins)',
    {
      cluster: { server: SERVER, 'certificate-authority-data': CA },
      user: {
        'client-certificate-data': CERT,
        'client-key-data': KEY,
        token: 't',
      },
    },
    `{"tlsClientConfig":{"insecure":false,"caData":"${CA}","certData":"${CERT}","keyData":"${KEY}"}}`,
  ],

  // Credentials: the round trippers.
  [
    'a bearer token and basic auth together',
    {
      cluster: { server: SERVER, 'certificate-authority-data': CA },
      user: { token: 't', username: 'u', password: 'p' },
    },
    {
      field: `${USER}.username`,
      message:
        /Argo CD.*"username\/password or bearer token may be set, but not both"; remove username and password/,
    },
  ],
  [
    'a bearer token and a password without a username',
    {
      cluster: { server: SERVER, 'certificate-authority-data': CA },
      user: { token: 't', password: 'p' },
    },
    { field: `${USER}.password`, message: /may be set, but not both/ },
  ],
  [
    'a client certificate and basic auth (client-go allows; the certificate is written)',
    {
      cluster: { server: SERVER, 'certificate-authority-data': CA },
      user: {
        'client-certificate-data': CERT,
        'client-key-data': KEY,
        username: 'u',
        password: 'p',
      },
    },
    `{"tlsClientConfig":{"insecure":false,"caData":"${CA}","certData":"${CERT}","keyData":"${KEY}"}}`,
  ],
  [
    'basic auth alone',
    {
      cluster: { server: SERVER, 'certificate-authority-data': CA },
      user: { username: 'u', password: 'p' },
    },
    { field: USER, message: /username and password are not supported/ },
  ],
  [
    'a token with a line break inside',
    {
      cluster: { server: SERVER, 'certificate-authority-data': CA },
      user: { token: 'abc\ndef' },
    },
    { field: `${USER}.token`, message: /line break.*no HTTP header/ },
  ],

  // Proxies: Argo CD's ParseProxyUrl (client-go's kubeconfig loader says the same).
  ...(
    [
      ['http', 'http://198.51.100.1:3128'],
      ['https', 'https://proxy.example:3129'],
      ['socks5', 'socks5://198.51.100.1:1080'],
      [
        'HTTP in capitals (Go lowercases the scheme)',
        'HTTP://198.51.100.1:3128',
      ],
    ] as const
  ).map(([scheme, url]): [string, Shape, Expected] => [
    `an ${scheme} proxy`,
    tokenWith({ 'certificate-authority-data': CA, 'proxy-url': url }),
    `{"bearerToken":"t","tlsClientConfig":{"insecure":false,"caData":"${CA}"},"proxyUrl":"${url}"}`,
  ]),
  ...(
    [
      [
        'a socks5h proxy',
        'socks5h://198.51.100.1:1080',
        /scheme socks5h, which Argo CD \(and kubectl, client-go\) refuse.*socks5:\/\//,
      ],
      ['an ftp proxy', 'ftp://198.51.100.1:21', /scheme ftp, which Argo CD/],
      [
        'a proxy without a scheme',
        '198.51.100.1:3128',
        /not a URL with a host, like http:\/\/proxy.example:3128/,
      ],
      [
        'a proxy without a scheme but with credentials',
        'user:hunter2@198.51.100.1:3128',
        /^proxy-url "\*\*\*@198\.51\.100\.1:3128" is not a URL with a host/,
      ],
      [
        'a proxy with credentials',
        'http://user:hunter2@198.51.100.1:3128',
        /carries credentials/,
      ],
      [
        'a proxy with a space (Go refuses what WHATWG URLs strip)',
        ' http://198.51.100.1:3128',
        /not a URL with a host/,
      ],
    ] as const
  ).map(([what, url, message]): [string, Shape, Expected] => [
    what,
    tokenWith({ 'certificate-authority-data': CA, 'proxy-url': url }),
    { field: `${CLUSTER}.proxy-url`, message },
  ]),
  [
    'a proxy with insecure (refused by policy: the proxy could read the credential)',
    tokenWith({
      'insecure-skip-tls-verify': true,
      'proxy-url': 'http://198.51.100.1:3128',
    }),
    {
      field: `${CLUSTER}.proxy-url`,
      message: /together with insecure-skip-tls-verify/,
    },
  ],

  // Exec credentials (the registrar's allowExec path): client-go's exec authenticator.
  [
    'exec with apiVersion client.authentication.k8s.io/v1beta1',
    eksExec(V1BETA1),
    EKS_CONFIG,
  ],
  [
    'exec with apiVersion client.authentication.k8s.io/v1',
    eksExec('client.authentication.k8s.io/v1'),
    EKS_CONFIG,
  ],
  [
    'exec with apiVersion client.authentication.k8s.io/v1alpha1',
    eksExec('client.authentication.k8s.io/v1alpha1'),
    {
      field: `${USER}.exec.apiVersion`,
      message:
        /"client.authentication.k8s.io\/v1alpha1" is not one client-go accepts/,
    },
  ],
  [
    'exec without an apiVersion',
    eksExec(),
    {
      field: `${USER}.exec.apiVersion`,
      message: /no apiVersion, which kubectl and client-go refuse/,
    },
  ],

  // The server: rest.Config's Host, parsed by Go.
  [
    'a plain http server (Argo CD would connect without TLS; registration refuses it)',
    {
      cluster: { server: 'http://203.0.113.10:8080' },
      user: { token: 't' },
    },
    {
      field: `${CLUSTER}.server`,
      message:
        /is plain http: the cluster credential would cross the network unencrypted/,
    },
  ],
  [
    'a server with a tab in it (Go refuses what WHATWG URLs strip)',
    {
      cluster: { server: 'https://203.0.113.10\t:6443' },
      user: { token: 't' },
    },
    { field: `${CLUSTER}.server`, message: /not a URL with a host/ },
  ],
];

/** The outcome a row expects: the config, passing the Secret-side rules, or one refusal. */
const wanted = (expected: Expected) =>
  typeof expected === 'string'
    ? { config: expected, problems: [] }
    : {
        errors: [
          {
            field: expected.field,
            message: expect.stringMatching(expected.message),
          },
        ],
      };

describe('kubeconfig → Argo CD cluster config, by client-go rules', () => {
  it.each(TABLE)('%s', (_what, shape, expected) => {
    const r = inspectKubeconfig(single(shape.user ?? {}, shape.cluster), {
      allowExec: shape.allowExec,
    });
    const outcome = r.ok
      ? {
          config: serializeArgoConfig(r.argoConfig),
          // What the Secret will hold passes client-go's rules read on the Secret's side too.
          problems: argoConnectionProblems({
            server: r.server,
            config: r.argoConfig,
          }),
        }
      : { errors: r.errors };
    expect(outcome).toEqual(wanted(expected));
  });
});

describe('argoConnectionFor: the server and config the Argo CD Secret holds', () => {
  const accepted = inspectKubeconfig(
    single(
      { token: 't' },
      { server: `${SERVER}/`, 'certificate-authority-data': CA },
    ),
  ) as KubeconfigAccepted;

  it("takes the kubeconfig's server when there is no override", () => {
    for (const override of [undefined, '', '  ']) {
      expect(argoConnectionFor(accepted, override)).toEqual({
        ok: true,
        server: SERVER,
        config: accepted.argoConfig,
      });
    }
  });

  it('takes spec.server over the kubeconfig, trimmed as Argo CD keys it, with the same config', () => {
    expect(argoConnectionFor(accepted, ' https://edge.example:443// ')).toEqual(
      {
        ok: true,
        server: 'https://edge.example:443',
        config: accepted.argoConfig,
      },
    );
  });

  it.each([
    [
      'the in-cluster address',
      'https://kubernetes.default.svc',
      /in-cluster address/,
    ],
    ['a non-http scheme', 'ftp://edge.example', /must be an https:\/\/ URL/],
    ['no host', 'https://', /not a URL with a host/],
  ])(
    'refuses a spec.server with %s, naming spec.server',
    (_what, server, message) => {
      expect(argoConnectionFor(accepted, server)).toEqual({
        ok: false,
        errors: [
          { field: 'spec.server', message: expect.stringMatching(message) },
        ],
      });
    },
  );
});

describe('argoConnectionProblems: client-go rules on the Secret side', () => {
  const config = (
    tls: Partial<ArgoClusterConfig['tlsClientConfig']>,
    extra: Partial<ArgoClusterConfig> = {},
  ): ArgoClusterConfig => ({
    bearerToken: 't',
    ...extra,
    tlsClientConfig: { insecure: false, ...tls },
  });

  it.each<[string, ArgoClusterConfig, string, RegExp]>([
    [
      'insecure with caData',
      config({ insecure: true, caData: CA }),
      'config.tlsClientConfig.insecure',
      /"specifying a root certificates file with the insecure flag is not allowed"/,
    ],
    [
      'caData that is no PEM certificate',
      config({ caData: b64('CA-PEM') }),
      'config.tlsClientConfig.caData',
      /"unable to load root certificates: unable to parse bytes as PEM block"/,
    ],
    [
      'caData holding only a private key',
      config({ caData: KEY }),
      'config.tlsClientConfig.caData',
      /no PEM certificate/,
    ],
    [
      'caData that is not base64',
      config({ caData: 'not base64!' }),
      'config.tlsClientConfig.caData',
      /illegal base64 data/,
    ],
    [
      'certData that is no PEM certificate',
      config({ certData: b64('CERT'), keyData: KEY }),
      'config.tlsClientConfig.certData',
      /"tls: failed to find any PEM data in certificate input"/,
    ],
    [
      'keyData that is no PEM private key',
      config({ certData: CERT, keyData: CERT }),
      'config.tlsClientConfig.keyData',
      /"tls: failed to find any PEM data in key input"/,
    ],
    [
      'certData without keyData',
      config({ certData: CERT }),
      'config.tlsClientConfig.certData',
      /without keyData/,
    ],
    [
      'a socks5h proxyUrl',
      config({}, { proxyUrl: 'socks5h://198.51.100.1:1080' }),
      'config.proxyUrl',
      /scheme socks5h.*must be an http, https or socks5 URL/,
    ],
    [
      'a proxyUrl without a scheme',
      config({}, { proxyUrl: '198.51.100.1:3128' }),
      'config.proxyUrl',
      /Failed to parse proxy url/,
    ],
    [
      'an exec apiVersion client-go does not know',
      config(
        {},
        {
          execProviderConfig: {
            command: 'argocd-k8s-auth',
            apiVersion: 'client.authentication.k8s.io/v1alpha1' as any,
          },
        },
      ),
      'config.execProviderConfig.apiVersion',
      /refused by client-go/,
    ],
    [
      'a bearer token with a control character',
      config({}, { bearerToken: 'a\u0000b' }),
      'config.bearerToken',
      /control character/,
    ],
  ])('refuses %s', (_what, cfg, field, message) => {
    expect(argoConnectionProblems({ server: SERVER, config: cfg })).toEqual([
      { field, message: expect.stringMatching(message) },
    ]);
  });

  it('refuses a server Go cannot parse', () => {
    expect(
      argoConnectionProblems({ server: 'https://a b', config: config({}) }),
    ).toEqual([
      {
        field: 'server',
        message: expect.stringMatching(/not a URL with a host/),
      },
    ]);
  });

  it('accepts a PEM bundle whose first block is not a certificate, as Go does', () => {
    const bundle = b64(`# comment\n${Buffer.from(KEY, 'base64')}${CA_PEM}`);
    expect(
      argoConnectionProblems({
        server: SERVER,
        config: config({ caData: bundle }),
      }),
    ).toEqual([]);
  });
});

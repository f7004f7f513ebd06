import { inspectKubeconfig } from './inspect';
import { CA, single } from './testing';

const USER = 'kubeconfig.users[0].user';
const CLUSTER = 'kubeconfig.clusters[0].cluster';

function refusal(text: string, options = {}) {
  const r = inspectKubeconfig(text, options);
  if (r.ok) throw new Error(`expected a refusal, got ${JSON.stringify(r)}`);
  return r.errors;
}

describe('inspectKubeconfig: the cluster', () => {
  const withCluster = (cluster: Record<string, unknown>) =>
    single({ token: 't' }, cluster);

  it.each([
    ['an empty server', { server: '' }, /^server is empty/],
    ['no server', { 'certificate-authority-data': CA }, /^server is empty/],
    ['a hostless server', { server: 'https://' }, /not a URL with a host/],
    [
      'a server without a scheme',
      { server: 'localhost:6443' },
      /not a URL with a host/,
    ],
    [
      'a non-http server',
      { server: 'ftp://203.0.113.10' },
      /must be an https:\/\/ URL/,
    ],
  ])('refuses %s', (_case, cluster, message) => {
    expect(refusal(withCluster(cluster))).toEqual([
      { field: `${CLUSTER}.server`, message: expect.stringMatching(message) },
    ]);
  });

  it('refuses a CA file path', () => {
    expect(
      refusal(
        withCluster({
          server: 'https://h:6443',
          'certificate-authority': '/ca.crt',
        }),
      ),
    ).toEqual([
      {
        field: `${CLUSTER}.certificate-authority`,
        message: expect.stringMatching(
          /file path \("\/ca.crt"\).*certificate-authority-data/,
        ),
      },
    ]);
  });

  it('refuses insecure-skip-tls-verify that is not a boolean', () => {
    expect(
      refusal(
        withCluster({ server: 'https://h', 'insecure-skip-tls-verify': 'yes' }),
      )[0].field,
    ).toBe(`${CLUSTER}.insecure-skip-tls-verify`);
  });

  it('refuses insecure-skip-tls-verify together with certificate-authority-data, as client-go does', () => {
    expect(
      refusal(
        withCluster({
          server: 'https://h',
          'insecure-skip-tls-verify': true,
          'certificate-authority-data': CA,
        }),
      ),
    ).toEqual([
      {
        field: `${CLUSTER}.insecure-skip-tls-verify`,
        message: expect.stringMatching(
          /refused by Argo CD \(and kubectl, client-go: "specifying a root certificates file with the insecure flag is not allowed"\): remove insecure-skip-tls-verify.*or remove certificate-authority-data/,
        ),
      },
    ]);
  });

  it('reports every problem of the cluster and the user at once', () => {
    const errors = refusal(single({}, { server: '' }));
    expect(errors.map(e => e.field)).toEqual([`${CLUSTER}.server`, USER]);
  });

  it.each([
    'https://kubernetes.default.svc',
    'https://kubernetes.default.svc:443/',
    'https://KUBERNETES.default',
    'https://kubernetes.default.svc.cluster.local',
    'https://kubernetes.default.svc.cluster.local:443',
  ])('refuses the in-cluster host %s when asked to', server => {
    expect(inspectKubeconfig(withCluster({ server })).ok).toBe(true);
    expect(
      refusal(withCluster({ server }), { refuseInClusterServer: true }),
    ).toEqual([
      {
        field: `${CLUSTER}.server`,
        message: expect.stringMatching(/in-cluster address.*own cluster/),
      },
    ]);
  });

  it.each([
    'https://kubernetes.default.svc:6443',
    'https://kubernetes.default.svc.example',
  ])('accepts %s, which is not the in-cluster address', server => {
    expect(
      inspectKubeconfig(withCluster({ server }), {
        refuseInClusterServer: true,
      }).ok,
    ).toBe(true);
  });

  it('carries a proxy-url next to tlsClientConfig', () => {
    const r = inspectKubeconfig(
      withCluster({
        server: 'https://h',
        'proxy-url': 'socks5://198.51.100.1:1080',
      }),
    );
    expect(r.ok && r.argoConfig).toEqual({
      bearerToken: 't',
      tlsClientConfig: { insecure: false },
      proxyUrl: 'socks5://198.51.100.1:1080',
    });
  });

  it.each([
    [
      'a bad scheme',
      { 'proxy-url': 'ftp://198.51.100.1' },
      /scheme ftp, which Argo CD \(and kubectl, client-go\) refuse: they accept only http, https and socks5;/,
    ],
    [
      'scheme socks5h, which Argo CD and kubectl refuse',
      { 'proxy-url': 'socks5h://198.51.100.1:1080' },
      /scheme socks5h, which Argo CD \(and kubectl, client-go\) refuse.*use socks5:\/\/ instead/,
    ],
    [
      'no scheme, without echoing its credentials',
      { 'proxy-url': 'user:hunter2@198.51.100.1:3128' },
      /^proxy-url "\*\*\*@198.51.100.1:3128" is not a URL with a host/,
    ],
    [
      'credentials',
      { 'proxy-url': 'http://u:p@198.51.100.1' },
      /carries credentials/,
    ],
    [
      'insecure-skip-tls-verify',
      { 'proxy-url': 'http://198.51.100.1', 'insecure-skip-tls-verify': true },
      /together with insecure-skip-tls-verify/,
    ],
    ['no host', { 'proxy-url': 'nonsense' }, /not a URL with a host/],
  ])('refuses a proxy-url with %s', (_case, cluster, message) => {
    expect(refusal(withCluster({ server: 'https://h', ...cluster }))).toEqual([
      {
        field: `${CLUSTER}.proxy-url`,
        message: expect.stringMatching(message),
      },
    ]);
  });
});

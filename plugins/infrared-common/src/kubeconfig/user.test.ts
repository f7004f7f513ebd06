import { inspectKubeconfig } from './inspect';
import { CA, CERT, KEY, single } from './testing';

const STORE = 'because Argo CD needs a credential it can store';
const USER = 'kubeconfig.users[0].user';

function refusal(text: string, options = {}) {
  const r = inspectKubeconfig(text, options);
  if (r.ok) throw new Error(`expected a refusal, got ${JSON.stringify(r)}`);
  return r.errors;
}

describe('inspectKubeconfig: credentials', () => {
  it('converts a token user', () => {
    const r = inspectKubeconfig(
      single(
        { token: 'sa-token' },
        {
          server: 'https://203.0.113.10:6443/',
          'certificate-authority-data': CA,
        },
      ),
    );
    expect(r).toEqual({
      ok: true,
      context: 'edge',
      clusterName: 'edge',
      userName: 'admin',
      server: 'https://203.0.113.10:6443',
      credentialKind: 'token',
      argoConfig: {
        bearerToken: 'sa-token',
        tlsClientConfig: { insecure: false, caData: CA },
      },
      insecure: false,
    });
  });

  it('converts a client-certificate user, carrying the *-data strings verbatim', () => {
    const r = inspectKubeconfig(
      single(
        { 'client-certificate-data': CERT, 'client-key-data': KEY },
        {
          server: 'https://203.0.113.10:6443',
          'insecure-skip-tls-verify': true,
          'tls-server-name': 'api.edge',
        },
      ),
    );
    expect(r).toMatchObject({
      ok: true,
      credentialKind: 'client-certificate',
      insecure: true,
    });
    expect(r.ok && r.argoConfig).toEqual({
      tlsClientConfig: {
        insecure: true,
        certData: CERT,
        keyData: KEY,
        serverName: 'api.edge',
      },
    });
  });

  it.each([
    [
      'cert+key over token',
      { 'client-certificate-data': CERT, 'client-key-data': KEY, token: 't' },
      'client-certificate',
    ],
    [
      'token over exec',
      { token: 't', exec: { command: 'aws', args: ['eks', 'get-token'] } },
      'token',
    ],
    [
      'token when the cert has no key',
      { 'client-certificate-data': CERT, token: 't' },
      'token',
    ],
  ])('prefers %s', (_case, user, kind) => {
    expect(inspectKubeconfig(single(user))).toMatchObject({
      ok: true,
      credentialKind: kind,
    });
  });

  it.each([
    [
      'exec',
      {
        exec: {
          apiVersion: 'client.authentication.k8s.io/v1beta1',
          command: '/usr/local/bin/aws',
          args: ['eks', 'get-token', '--cluster-name', 'x'],
        },
      },
      `${USER}.exec`,
      new RegExp(`exec credential plugins \\("aws"\\) are refused ${STORE}`),
    ],
    [
      'auth-provider',
      { 'auth-provider': { name: 'oidc', config: {} } },
      `${USER}.auth-provider`,
      new RegExp(`auth-provider plugins \\("oidc"\\) are refused ${STORE}`),
    ],
    [
      'tokenFile',
      { tokenFile: '/var/run/token' },
      `${USER}.tokenFile`,
      new RegExp(`tokenFile is refused ${STORE}: put the token inline`),
    ],
    [
      'tokenFile even beside a token',
      { token: 't', tokenFile: '/var/run/token' },
      `${USER}.tokenFile`,
      new RegExp(STORE),
    ],
    [
      'a client-certificate path',
      { 'client-certificate': '/tmp/c.crt', 'client-key-data': KEY },
      `${USER}.client-certificate`,
      /file path \("\/tmp\/c.crt"\).*client-certificate-data/,
    ],
    [
      'a client-key path',
      { 'client-certificate-data': CERT, 'client-key': '/tmp/c.key' },
      `${USER}.client-key`,
      /file path.*client-key-data/,
    ],
    [
      'no credential',
      {},
      USER,
      /user "admin" has no credential: give the user a token/,
    ],
    [
      'username and password',
      { username: 'u', password: 'p' },
      USER,
      /username and password are not supported/,
    ],
    [
      'a certificate without a key',
      { 'client-certificate-data': CERT },
      USER,
      /has client-certificate-data but no client-key-data/,
    ],
    [
      'a key without a certificate',
      { 'client-key-data': KEY },
      USER,
      /has client-key-data but no client-certificate-data/,
    ],
    [
      'a token that is not a string',
      { token: 12345 },
      `${USER}.token`,
      /token must be a string, not a number/,
    ],
    ['an empty token', { token: '  ' }, USER, /has no credential/],
    [
      'certificate data that is not base64',
      {
        'client-certificate-data': '-----BEGIN CERTIFICATE-----',
        'client-key-data': KEY,
      },
      `${USER}.client-certificate-data`,
      /is not base64/,
    ],
  ])('refuses %s', (_case, user, field, message) => {
    expect(refusal(single(user))).toEqual([
      { field, message: expect.stringMatching(message) },
    ]);
  });

  it('reports the field of the user the context chose', () => {
    const text = single({ token: 't' }).replace(
      'users:\n',
      'users:\n  - name: other\n    user:\n      token: x\n',
    );
    const kc = text.replace('token: t', 'tokenFile: /t');
    expect(refusal(kc)[0].field).toBe('kubeconfig.users[1].user.tokenFile');
  });
});

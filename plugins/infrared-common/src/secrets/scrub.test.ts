import { generateKeyPairSync } from 'node:crypto';
import { SCRUBBED, scrubError, scrubSecrets, scrubbedMessage } from './scrub';

const TOKEN = 'Zm9vYmFyLXRva2VuLXNlY3JldC0xMjM0';
const JWT =
  'eyJhbGciOiJSUzI1NiIsImtpZCI6IngifQ.eyJpc3MiOiJrdWJlcm5ldGVzL3NlcnZpY2VhY2NvdW50In0.c2lnbmF0dXJlLWJ5dGVz';
const KEY_PEM = generateKeyPairSync('ec', { namedCurve: 'prime256v1' })
  .privateKey.export({ type: 'pkcs8', format: 'pem' })
  .toString();
const KEY_B64 = Buffer.from(KEY_PEM).toString('base64');
const GH = `ghp_${'A1b2C3d4E5'.repeat(4)}`;

describe('scrubSecrets', () => {
  it.each<[string, string, string, RegExp]>([
    [
      'a git remote URL with a token',
      `fatal: unable to access 'https://x-access-token:${GH}@127.0.0.1/org/gitops.git/': The requested URL returned error: 403`,
      GH,
      /unable to access 'https:\/\/\[redacted\]@127\.0\.0\.1\/org\/gitops\.git\/'.*403/,
    ],
    [
      'a Kubernetes Status echoing a bearer header',
      `GET secrets infrared/x: Unauthorized: request had header Authorization: Bearer ${TOKEN}`,
      TOKEN,
      /GET secrets infrared\/x: Unauthorized: .*Bearer \[redacted\]/,
    ],
    [
      'a Kubernetes Invalid answer echoing a kubeconfig',
      `Secret "cluster-x-kubeconfig" is invalid: data.kubeconfig: users:\n- user:\n    token: ${TOKEN}\n`,
      TOKEN,
      /is invalid: data\.kubeconfig/,
    ],
    [
      'a ServiceAccount JWT anywhere',
      `the token ${JWT} was rejected`,
      JWT,
      /the token \[redacted\] was rejected/,
    ],
    [
      'client key data in YAML',
      `unmarshal failed near client-key-data: ${KEY_B64}`,
      KEY_B64,
      /unmarshal failed near client-key-data: \[redacted\]/,
    ],
    [
      'a base64 PEM block alone',
      `could not decode ${KEY_B64} as a certificate`,
      KEY_B64,
      /could not decode \[redacted\] as a certificate/,
    ],
    [
      'a PEM key in a message',
      `bad key:\n${KEY_PEM}\nend`,
      'PRIVATE KEY',
      /^bad key:\n\[redacted\]\s*end$/,
    ],
    [
      'JSON token fields',
      `{"bearerToken":"${TOKEN}","tlsClientConfig":{"insecure":false}}`,
      TOKEN,
      /"bearerToken":\[redacted\],"tlsClientConfig"/,
    ],
    [
      'a GIT_TOKEN-like environment value',
      `env: GIT_TOKEN=${TOKEN} GITHUB_TOKEN='${TOKEN}x'`,
      TOKEN,
      /GIT_TOKEN=\[redacted\] GITHUB_TOKEN=\[redacted\]/,
    ],
    [
      'a GitHub token in a response body',
      `Bad credentials for ${GH} (401)`,
      GH,
      /Bad credentials for \[redacted\] \(401\)/,
    ],
    [
      'a password query parameter',
      `POST https://127.0.0.1/login?user=a&password=${TOKEN} failed`,
      TOKEN,
      /password=\[redacted\] failed/,
    ],
  ])('removes %s and keeps what failed', (_what, text, secret, kept) => {
    const scrubbed = scrubSecrets(text);
    expect(scrubbed).not.toContain(secret);
    expect(scrubbed).toMatch(kept);
  });

  it('removes known values, as given and base64-encoded, whatever their shape', () => {
    const secret = 'plain words are a password too';
    const text = `one ${secret}, two ${Buffer.from(secret).toString('base64')}`;
    expect(scrubSecrets(text, [secret])).toBe(
      `one ${SCRUBBED}, two ${SCRUBBED}`,
    );
  });

  it('leaves messages without credentials as they are', () => {
    for (const text of [
      'kubeconfig.users[0].user.token: token holds a line break',
      'GET clusters edge: NotFound: clusters.infrared.darkshift.io "edge" not found',
      'git push failed (128): fatal: could not read Username for https://127.0.0.1',
      'the Bearer token is refused; use basic auth',
      'commit by someone@example.com',
    ]) {
      expect(scrubSecrets(text)).toBe(text);
    }
  });
});

describe('scrubError and scrubbedMessage', () => {
  it("scrub an error's message, stack and cause in place, keeping its class", () => {
    class KubeLikeError extends Error {
      readonly code = 401;
    }
    const cause = new Error(`token: ${TOKEN}`);
    const error = new KubeLikeError(`Bearer ${TOKEN} refused`, { cause });
    expect(scrubError(error)).toBe(error);
    expect(error).toBeInstanceOf(KubeLikeError);
    expect(error.code).toBe(401);
    expect(`${error.message}${error.stack}${cause.message}`).not.toContain(
      TOKEN,
    );
    expect(scrubbedMessage(new Error(`https://u:${TOKEN}@h/`))).toBe(
      `https://${SCRUBBED}@h/`,
    );
    expect(scrubbedMessage(`token=${TOKEN}`)).toBe(`token=${SCRUBBED}`);
  });
});

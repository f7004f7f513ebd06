import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A GitHub account as GitHub's REST API describes it (`GET /user`). */
export interface GithubAccount {
  login: string;
  id: number;
  node_id: string;
  name: string;
}

/**
 * A loopback stand-in for GitHub Enterprise Server's OAuth endpoints, as the GitHub auth provider
 * calls them with `enterpriseInstanceUrl`: `POST /login/oauth/access_token` exchanges a code (the
 * test's `code-<login>`, only with the right client credentials) for an access token, and
 * `GET /api/v3/user` answers the account of that token. Anything else answers 404.
 */
export async function startFakeGithub(
  accounts: GithubAccount[],
  client: { id: string; secret: string },
): Promise<{ url: string; stop: () => Promise<void> }> {
  const tokens = new Map<string, GithubAccount>();
  const send = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', chunk => {
      raw += chunk;
    });
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      if (
        req.method === 'POST' &&
        url.pathname === '/login/oauth/access_token'
      ) {
        const form = new URLSearchParams(raw);
        const account = accounts.find(
          a => form.get('code') === `code-${a.login}`,
        );
        if (
          !account ||
          form.get('client_id') !== client.id ||
          form.get('client_secret') !== client.secret
        ) {
          send(res, 200, { error: 'bad_verification_code' });
          return;
        }
        const token = `gho_${account.login}_${Date.now()}`;
        tokens.set(token, account);
        send(res, 200, {
          access_token: token,
          token_type: 'bearer',
          scope: 'read:user',
        });
        return;
      }
      if (req.method === 'GET' && url.pathname === '/api/v3/user') {
        const token = String(req.headers.authorization ?? '').replace(
          /^(token|bearer) /i,
          '',
        );
        const account = tokens.get(token);
        if (!account) {
          send(res, 401, { message: 'Bad credentials' });
          return;
        }
        send(res, 200, {
          ...account,
          avatar_url: `https://avatars.example.com/u/${account.id}`,
          email: null,
          type: 'User',
        });
        return;
      }
      send(res, 404, { message: 'Not Found' });
    });
  });
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    stop: () =>
      new Promise<void>(resolve => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * The cookies of a response's Set-Cookie headers, as a browser's Cookie header sends them back:
 * the ones it removes (Max-Age=0, as the start answer does before setting the nonce) left out.
 */
function cookies(res: Response): string {
  return res.headers
    .getSetCookie()
    .filter(c => !/;\s*Max-Age=0\b/i.test(c))
    .map(c => c.split(';')[0])
    .join('; ');
}

/**
 * Signs `login` in with GitHub through the real auth backend, as the browser's popup does:
 * `GET /api/auth/github/start` (which redirects to GitHub's authorize page), GitHub's redirect back
 * to the callback with a code and the state, and the frame's answer. Returns that answer
 * (`backstageIdentity.token` when signed in, `error` when not).
 */
export async function githubSignIn(
  base: string,
  github: string,
  login: string,
  env = 'production',
): Promise<{ token?: string; error?: { name: string; message: string } }> {
  const start = await fetch(
    `${base}/api/auth/github/start?scope=read:user&env=${env}`,
    { redirect: 'manual' },
  );
  const location = start.headers.get('location') ?? '';
  if (
    start.status !== 302 ||
    !location.startsWith(`${github}/login/oauth/authorize`)
  ) {
    throw new Error(`start answered ${start.status}, to ${location}`);
  }
  const authorize = new URL(location);
  // what GitHub does once the user agrees: back to the callback with a code and the same state
  const callback = new URL(authorize.searchParams.get('redirect_uri')!);
  callback.searchParams.set('code', `code-${login}`);
  callback.searchParams.set('state', authorize.searchParams.get('state')!);
  const frame = await fetch(`${base}${callback.pathname}${callback.search}`, {
    headers: { cookie: cookies(start) },
  });
  const html = await frame.text();
  const encoded = /var authResponse = decodeURIComponent\('([^']*)'\)/.exec(
    html,
  )?.[1];
  if (!encoded) throw new Error(`frame answered ${frame.status}: ${html}`);
  const message = JSON.parse(decodeURIComponent(encoded));
  return {
    token: message.response?.backstageIdentity?.token,
    error: message.error,
  };
}

/**
 * Who a Backstage token is, as the auth backend's user-info endpoint answers it: the User and the
 * ownership refs (the User and its Groups) the permission policy sees.
 */
export async function userInfo(
  base: string,
  token: string,
): Promise<{ sub: string; ent: string[] }> {
  const res = await fetch(`${base}/api/auth/v1/userinfo`, {
    headers: { authorization: `Bearer ${token}` },
  });
  if (res.status !== 200) {
    throw new Error(`userinfo answered ${res.status}: ${await res.text()}`);
  }
  return (await res.json()).claims;
}

/* The API tokens of Argo CD's local accounts, minted (or kept) the way an Argo CD admin does it. */
import { tail } from './apiserver';
import type { ProcRecord } from './processes';

const sleep = (ms: number) => new Promise(r => setTimeout(r, ms));

/** POST of JSON to argocd-server; a non-2xx answer throws with its message (never the body sent). */
async function post(url: string, body: unknown, bearer?: string) {
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      ...(bearer ? { Authorization: `Bearer ${bearer}` } : {}),
    },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(15_000),
  });
  const answer: any = await res.json().catch(() => ({}));
  if (!res.ok) {
    throw new Error(
      `devenv: POST ${new URL(url).pathname} -> ${res.status}: ${
        answer.message ?? ''
      }`,
    );
  }
  return answer;
}

/** True when argocd-server takes `token` as `account`'s (GET /api/v1/session/userinfo). */
export async function accepts(url: string, account: string, token?: string) {
  if (!token) return false;
  const res = await fetch(`${url}/api/v1/session/userinfo`, {
    headers: { Authorization: `Bearer ${token}` },
    signal: AbortSignal.timeout(5000),
  });
  const info: any = await res.json().catch(() => ({}));
  return res.ok && info.loggedIn === true && info.username === account;
}

/**
 * The local accounts' API tokens, minted the way an Argo CD admin does it: a session with the
 * initial admin password argocd-server wrote into `argocd-initial-admin-secret`, then
 * `POST /api/v1/account/<account>/token`. A token of `known` that Argo CD still accepts is kept.
 */
async function mintTokens(
  url: string,
  adminPassword: () => Promise<string>,
  accounts: string[],
  known: Record<string, string | undefined>,
): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  let session: string | undefined;
  for (const account of accounts) {
    if (await accepts(url, account, known[account])) {
      out[account] = known[account]!;
      continue;
    }
    session ??= (
      await post(`${url}/api/v1/session`, {
        username: 'admin',
        password: await adminPassword(),
      })
    ).token as string;
    const minted = await post(
      `${url}/api/v1/account/${account}/token`,
      { name: account, id: `devenv-${Date.now().toString(36)}` },
      session,
    );
    out[account] = minted.token;
  }
  return out;
}

/** Token minting, retried while argocd-server has not yet written the initial admin password. */
export async function mintTokensWithin(
  url: string,
  adminPassword: () => Promise<string>,
  accounts: string[],
  known: Record<string, string | undefined>,
  server: ProcRecord,
  timeoutMs: number,
): Promise<Record<string, string>> {
  const deadline = Date.now() + timeoutMs;
  for (let attempt = 1; ; attempt++) {
    try {
      return await mintTokens(url, adminPassword, accounts, known);
    } catch (e) {
      if (Date.now() > deadline || attempt >= 60) {
        throw new Error(
          `devenv: no API tokens for Argo CD accounts ${accounts.join(
            ', ',
          )} after ${attempt} attempts: ${(e as Error).message}\n${tail(
            server.log,
          )}`,
        );
      }
      await sleep(1000);
    }
  }
}

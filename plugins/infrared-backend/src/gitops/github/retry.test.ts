import { captureLogger } from '../__testUtils__/captureLogger';
import { createRetryingOctokit, RetryOptions } from './retry';

interface Reply {
  status: number;
  headers?: Record<string, string>;
  message?: string;
  /** Fail the request before any answer, as a reset connection does. */
  network?: boolean;
}

/**
 * The publisher's Octokit over a fetch that gives `replies` in turn, then 200s. Waits take a millisecond
 * where they would take a second; writes are not paced.
 */
function github(replies: Reply[], retry: RetryOptions = {}) {
  const calls: string[] = [];
  const fetch = async (url: string | URL | Request, init?: RequestInit) => {
    calls.push(`${init?.method} ${new URL(String(url)).pathname}`);
    const reply = replies.shift() ?? { status: 200 };
    if (reply.network) throw new TypeError('fetch failed');
    const body =
      reply.status < 300 ? { id: 1 } : { message: reply.message ?? 'fault' };
    return new Response(JSON.stringify(body), {
      status: reply.status,
      headers: { 'content-type': 'application/json', ...reply.headers },
    });
  };
  const logger = captureLogger();
  const octokit = createRetryingOctokit({
    token: 'ghs_token',
    baseUrl: 'https://api.github.test',
    logger,
    retry: { retryAfterBaseValue: 1, paceWrites: false, ...retry },
    request: { fetch },
  });
  const get = () =>
    octokit.request('GET /repos/{owner}/{repo}', {
      owner: 'acme',
      repo: 'gitops',
    });
  return { calls, logger, get };
}

const secondary = (headers: Record<string, string> = {}, status = 403) => ({
  status,
  headers,
  message: 'You have exceeded a secondary rate limit.',
});

describe('createRetryingOctokit', () => {
  it.each([500, 502, 503, 504])('retries a %d and succeeds', async status => {
    const gh = github([{ status }]);
    await expect(gh.get()).resolves.toMatchObject({ status: 200 });
    expect(gh.calls).toEqual([
      'GET /repos/acme/gitops',
      'GET /repos/acme/gitops',
    ]);
    expect(gh.logger.text()).toContain(
      `GitHub answered ${status} to GET /repos/{owner}/{repo}; retry 1 of 4`,
    );
  });

  it('retries a request that got no answer', async () => {
    const gh = github([{ status: 0, network: true }]);
    await expect(gh.get()).resolves.toMatchObject({ status: 200 });
    expect(gh.calls).toHaveLength(2);
  });

  it('gives up on a 5xx after four retries, with its error', async () => {
    const gh = github(Array(10).fill({ status: 503 }));
    await expect(gh.get()).rejects.toMatchObject({ status: 503 });
    expect(gh.calls).toHaveLength(5);
    expect(gh.logger.text()).toContain('retry 4 of 4');
    expect(gh.logger.text()).toContain('no retry left');
  });

  it('counts the retries of each request anew', async () => {
    const gh = github([{ status: 404 }, { status: 502 }, { status: 502 }], {
      maxRetries: 1,
    });
    await expect(gh.get()).rejects.toMatchObject({ status: 404 });
    await expect(gh.get()).rejects.toMatchObject({ status: 502 });
    expect(gh.calls).toHaveLength(3);
    expect(gh.logger.text()).toContain('retry 1 of 1');
  });

  it.each([
    ['400', { status: 400 }],
    ['401', { status: 401, message: 'Bad credentials' }],
    [
      '403 without a rate limit',
      { status: 403, headers: { 'x-ratelimit-remaining': '4999' } },
    ],
    ['404', { status: 404 }],
    ['405 (a merge GitHub refuses)', { status: 405 }],
    ['409', { status: 409 }],
    ['422', { status: 422 }],
  ])('does not retry a %s', async (_, reply) => {
    const gh = github([reply]);
    await expect(gh.get()).rejects.toMatchObject({ status: reply.status });
    expect(gh.calls).toHaveLength(1);
  });

  it('waits out a secondary rate limit as long as retry-after asks', async () => {
    const gh = github([secondary({ 'retry-after': '7' })]);
    await expect(gh.get()).resolves.toMatchObject({ status: 200 });
    expect(gh.calls).toHaveLength(2);
    expect(gh.logger.text()).toContain(
      "GitHub's secondary rate limit on GET /repos/{owner}/{repo}; retrying in 7 s",
    );
  });

  it('waits a minute for a secondary rate limit without retry-after (429 too)', async () => {
    const gh = github([secondary({}, 429)]);
    await expect(gh.get()).resolves.toMatchObject({ status: 200 });
    expect(gh.logger.text()).toContain('retrying in 60 s');
  });

  it('waits for the reset of an exhausted quota, and a second more', async () => {
    const reset = Math.floor(Date.now() / 1000) + 12;
    const gh = github([
      {
        status: 403,
        headers: {
          'x-ratelimit-remaining': '0',
          'x-ratelimit-reset': String(reset),
        },
      },
    ]);
    await expect(gh.get()).resolves.toMatchObject({ status: 200 });
    expect(gh.logger.text()).toMatch(
      /GitHub's primary rate limit on GET \/repos\/\{owner\}\/\{repo\}; retrying in 1[23] s/,
    );
  });

  it('fails at once when a rate limit asks for a longer wait than maxDelayMs', async () => {
    const gh = github([secondary({ 'retry-after': '61' })]);
    await expect(gh.get()).rejects.toMatchObject({ status: 403 });
    expect(gh.calls).toHaveLength(1);
    expect(gh.logger.text()).toContain('not waiting 61 s');
  });

  it('gives up on a rate limit after four retries', async () => {
    const gh = github(Array(10).fill(secondary({ 'retry-after': '1' })));
    await expect(gh.get()).rejects.toMatchObject({ status: 403 });
    expect(gh.calls).toHaveLength(5);
  });

  it('does nothing of this when turned off', async () => {
    const gh = github([{ status: 502 }], { enabled: false });
    await expect(gh.get()).rejects.toMatchObject({ status: 502 });
    expect(gh.calls).toHaveLength(1);
  });
});

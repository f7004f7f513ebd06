import {
  registration,
  TOKEN,
  useFakeGithub,
} from '../__testUtils__/githubHarness';
import { GitopsPublishError } from './errors';

const APP = 'registry/clusters/infrared-mgmt/components/cluster-edge-1.yaml';

describe('GithubPublisher faults', () => {
  const gh = useFakeGithub({ retries: true });

  it('rebuilds the branch on the new head after a merge conflict, in the same pull request', async () => {
    let moved = false;
    gh.server.beforeMerge = repo => {
      if (moved) return;
      moved = true;
      repo.push('main', {
        [APP]: 'kind: TheirVersion\n',
        'theirs.txt': 'kept\n',
      });
    };
    const result = await gh.publisher().publish(registration);
    const repo = gh.server.repo;
    expect(result.pullRequest?.number).toBe(1);
    expect(repo.file(APP)).toBe('kind: Application\n');
    expect(repo.file('theirs.txt')).toBe('kept\n');
    expect(gh.server.count('pulls/merge')).toBe(2);
    expect(gh.server.count('pulls/create')).toBe(1);
    expect(repo.pulls).toHaveLength(1);
    expect(gh.sleeps).toEqual([1000]);
    expect(gh.logger.text()).toMatch(
      /cannot be merged \(405 Merge conflict in .*\); rebuilding it on the new head of main/,
    );
  });

  it('gives up after the bounded attempts with a clear message, leaving one open pull request', async () => {
    let n = 0;
    gh.server.beforeMerge = repo =>
      repo.push('main', { [APP]: `kind: Race${++n}\n` });
    await expect(
      gh.publisher({ maxAttempts: 3 }).publish(registration),
    ).rejects.toThrow(
      /^gitops: gave up merging "register-edge-1" into main of acme\/gitops after 3 attempts; GitHub said: 405 Merge conflict in registry\//,
    );
    expect(gh.server.count('pulls/merge')).toBe(3);
    expect(gh.server.repo.pulls).toMatchObject([{ number: 1, state: 'open' }]);
  });

  it('leaves the pull request open when a rule refuses the merge (a required check), without rebuilding it', async () => {
    gh.server.faults.push({
      operationId: 'pulls/merge',
      status: 405,
      message: 'Required status check "ci" is expected.',
    });
    const result = await gh.publisher({ maxAttempts: 2 }).publish(registration);
    expect(result).toMatchObject({
      state: 'open',
      merged: false,
      pullRequest: { number: 1 },
    });
    expect(gh.server.count('pulls/merge')).toBe(1);
    expect(gh.server.count('git/create-commit')).toBe(1);
    expect(gh.sleeps).toEqual([]);
    expect(gh.logger.text()).toContain(
      'GitHub refused to merge it (405 Required status check "ci" is expected.)',
    );
    expect(gh.server.repo.pulls).toMatchObject([{ number: 1, state: 'open' }]);
  });

  it('says closed when a human closes the pull request before it is merged, and does not rebuild it', async () => {
    gh.server.beforeMerge = repo => repo.closeByHuman(1);
    const result = await gh.publisher().publish(registration);
    expect(result).toMatchObject({
      state: 'closed',
      merged: false,
      pullRequest: { number: 1 },
    });
    expect(gh.server.count('git/create-commit')).toBe(1);
    expect(gh.sleeps).toEqual([]);
    expect(gh.server.repo.pulls).toMatchObject([
      { number: 1, state: 'closed', merged: false },
    ]);
    expect(gh.logger.text()).toContain(
      'was closed before it could be merged; it is not reopened',
    );
  });

  it('rebuilds on the new head when GitHub says the base branch was modified', async () => {
    gh.server.faults.push({
      operationId: 'pulls/merge',
      status: 405,
      message: 'Base branch was modified. Review and try the merge again.',
    });
    const result = await gh.publisher().publish(registration);
    expect(result).toMatchObject({
      state: 'merged',
      pullRequest: { number: 1 },
    });
    expect(gh.server.count('pulls/merge')).toBe(2);
    expect(gh.server.count('git/create-commit')).toBe(2);
    expect(gh.sleeps).toEqual([1000]);
  });

  it('retries a 502 and succeeds', async () => {
    gh.server.faults.push({
      operationId: 'git/create-commit',
      status: 502,
      message: 'Bad Gateway',
    });
    const result = await gh.publisher().publish(registration);
    expect(result.merged).toBe(true);
    expect(gh.server.count('git/create-commit')).toBe(2);
    expect(gh.logger.text()).toMatch(
      /GitHub answered 502 to POST .*git\/commits.*; retry 1 of 4/,
    );
  });

  it('waits as long as a secondary rate limit asks (retry-after), then succeeds', async () => {
    gh.server.faults.push({
      operationId: 'pulls/create',
      status: 403,
      headers: { 'retry-after': '7' },
      message: 'You have exceeded a secondary rate limit.',
    });
    await gh.publisher().publish(registration);
    expect(gh.logger.text()).toContain(
      "GitHub's secondary rate limit on POST /repos/{owner}/{repo}/pulls; retrying in 7 s",
    );
    expect(gh.server.count('pulls/create')).toBe(2);
    expect(gh.server.repo.pulls).toHaveLength(1);
  });

  it('waits for the rate limit reset when no quota remains (429)', async () => {
    const start = Date.now();
    const reset = Math.ceil(start / 1000) + 30;
    gh.server.faults.push({
      operationId: 'repos/get',
      status: 429,
      headers: {
        'x-ratelimit-remaining': '0',
        'x-ratelimit-reset': String(reset),
      },
    });
    await gh.publisher().publish(registration);
    const waits = [
      ...gh.logger
        .text()
        .matchAll(
          /GitHub's primary rate limit on GET \S+; retrying in (\d+) s/g,
        ),
    ].map(m => Number(m[1]) * 1000);
    expect(waits).toHaveLength(1);
    expect(waits[0]).toBeGreaterThan(25_000);
    // Until the reset, and a second more as GitHub advises (the reset is in whole seconds).
    expect(waits[0]).toBeLessThanOrEqual(reset * 1000 - start + 2000);
    expect(gh.server.count('repos/get')).toBe(2);
  });

  it('ends with a clear error when 5xx persists, after bounded retries', async () => {
    gh.server.faults.push({
      operationId: 'repos/get-branch',
      status: 503,
      times: 100,
    });
    await expect(gh.publisher().publish(registration)).rejects.toThrow(
      'GitHub answered 503 to "read branch main" on acme/gitops: fault',
    );
    expect(gh.server.count('repos/get-branch')).toBe(5);
    expect(gh.logger.text()).toMatch(
      /GitHub answered 503 to GET .*; no retry left/,
    );
  });

  it('says the repository is missing (404), without retrying', async () => {
    gh.server.repoExists = false;
    const error = await gh
      .publisher()
      .publish(registration)
      .catch(e => e);
    expect(error).toBeInstanceOf(GitopsPublishError);
    expect(error.message).toBe(
      `GitHub repository acme/gitops was not found at ${gh.server.apiBaseUrl}, or the credentials cannot see it (404)`,
    );
    expect(gh.sleeps).toEqual([]);
  });

  it('says which permission is missing', async () => {
    gh.server.canPush = false;
    await expect(gh.publisher().publish(registration)).rejects.toThrow(
      'The GitHub credentials can read acme/gitops but not push to it: grant write access to contents and pull requests',
    );
    gh.server.canPush = true;
    gh.server.faults.push({
      operationId: 'git/create-ref',
      status: 403,
      message: 'Resource not accessible by integration',
    });
    await expect(gh.publisher().publish(registration)).rejects.toThrow(
      'GitHub denied "push branch infrared/register-edge-1" on acme/gitops (403 Resource not accessible by integration): the token or GitHub App installation needs write access to contents and pull requests',
    );
    expect(gh.sleeps).toEqual([]);
  });

  it('never puts the token in an error, even when GitHub echoes it', async () => {
    gh.server.faults.push({
      operationId: 'pulls/create',
      status: 422,
      message: `token ${TOKEN} is odd`,
    });
    const error = await gh
      .publisher()
      .publish(registration)
      .catch(e => e);
    expect(error.message).toBe(
      'GitHub answered 422 to "open pull request" on acme/gitops: token [REDACTED] is odd',
    );
    expect(JSON.stringify(error)).not.toContain(TOKEN);
    expect(String(error.stack)).not.toContain(TOKEN);
  });

  it('says the credentials were rejected (401)', async () => {
    gh.server.faults.push({
      operationId: 'repos/get',
      status: 401,
      message: 'Bad credentials',
    });
    await expect(gh.publisher().publish(registration)).rejects.toThrow(
      'GitHub rejected the credentials for acme/gitops (401 Bad credentials): check the token or GitHub App under integrations.github',
    );
  });
});

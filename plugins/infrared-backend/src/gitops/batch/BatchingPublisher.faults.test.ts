import type { GitopsPublishResult } from '@infrared-clusters/plugin-infrared-node';
import { useFakeGithub } from '../__testUtils__/githubHarness';
import {
  clusterNames,
  githubStack,
  landedPaths,
  registerAtOnce,
} from '../__testUtils__/githubScale';

// a rebuilt pull request waits a real second (the publisher's pause before rebuilding)
jest.setTimeout(30_000);

const readme = (name: string) =>
  `registry/clusters/${name}/components/README.md`;

/** Batched registrations through the backend's GitHub stack while GitHub misbehaves. */
describe('BatchingPublisher on GitHub under faults', () => {
  // the retry and throttling plugins on, a millisecond where GitHub says a second
  const gh = useFakeGithub({ retries: true });
  const stack = () =>
    githubStack({
      server: gh.server,
      logger: gh.logger,
      maxFilesPerChange: 40, // 10 registrations a change (4 files each)
      githubRetry: { retryAfterBaseValue: 1, paceWrites: false },
    });
  const expectEachMergedOnce = (names: string[]) => {
    const landed = landedPaths(gh.server.repo);
    for (const name of names) expect(landed.get(readme(name))).toHaveLength(1);
    expect(landed.size).toBe(names.length * 4);
  };

  it('retries 5xx answers, a secondary rate limit and a merge conflict, and merges each cluster once', async () => {
    const { server } = gh;
    server.faults.push(
      { operationId: 'repos/get-branch', status: 503 },
      { operationId: 'git/create-commit', status: 502, times: 2 },
      { operationId: 'pulls/merge', status: 500 },
      {
        operationId: 'pulls/create',
        status: 403,
        headers: { 'retry-after': '1' },
        message: 'You have exceeded a secondary rate limit.',
      },
    );
    let conflicted = false;
    server.beforeMerge = repo => {
      if (conflicted) return;
      conflicted = true;
      // someone else writes a file of the batch on main under the pull request
      repo.push('main', { [readme('edge-0')]: '# theirs\n' });
    };
    const names = clusterNames(40);
    const results = await registerAtOnce(stack(), names);

    expect(results.filter(r => r.status === 'rejected')).toEqual([]);
    expect(server.faults.every(f => f.times === 0)).toBe(true);
    expect(server.repo.pulls.length).toBeGreaterThanOrEqual(4);
    expect(server.repo.pulls.every(p => p.merged)).toBe(true);
    expectEachMergedOnce(names);
    expect(server.repo.file(readme('edge-0'))).toContain(
      '# Components of cluster edge-0',
    );
    const log = gh.logger.text();
    expect(log).toMatch(/GitHub answered 503 to GET .*; retry 1 of 4/);
    expect(log).toMatch(/GitHub answered 502 to POST .*; retry 2 of 4/);
    expect(log).toMatch(/GitHub answered 500 to PUT .*merge; retry 1 of 4/);
    expect(log).toContain(
      "GitHub's secondary rate limit on POST /repos/{owner}/{repo}/pulls; retrying in 1 s",
    );
    expect(log).toMatch(
      /cannot be merged \(405 Merge conflict in .*edge-0.*\); rebuilding it on the new head of main/,
    );
  });

  it('opens a new pull request when a human closed the one a failed publish left, and merges each cluster once', async () => {
    const { server } = gh;
    // the merge keeps failing: the retries and the publish give up with the pull request open
    server.faults.push({ operationId: 'pulls/merge', status: 502, times: 5 });
    const names = clusterNames(10);
    const failed = await registerAtOnce(stack(), names);
    expect(failed.map(r => r.status)).toEqual(names.map(() => 'rejected'));
    expect(server.repo.pulls).toMatchObject([{ number: 1, state: 'open' }]);

    server.repo.closeByHuman(1);
    // the next pass publishes the same registrations again
    const again = await registerAtOnce(stack(), names);

    const values = again.map(
      r => (r as PromiseFulfilledResult<GitopsPublishResult>).value,
    );
    expect(values.map(v => v?.state)).toEqual(names.map(() => 'merged'));
    expect(values.map(v => v.pullRequest?.number)).toEqual(names.map(() => 2));
    expect(server.repo.pulls).toMatchObject([
      { number: 1, state: 'closed', merged: false },
      { number: 2, state: 'closed', merged: true },
    ]);
    expectEachMergedOnce(names);
  });
});

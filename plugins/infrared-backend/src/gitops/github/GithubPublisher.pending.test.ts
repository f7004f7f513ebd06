import { RecordedRequest } from '../__testUtils__/fakeGithubServer';
import { registration, useFakeGithub } from '../__testUtils__/githubHarness';
import type { GitopsPublishResult } from '@infrared-clusters/plugin-infrared-node';

const APP = 'registry/clusters/infrared-mgmt/components/cluster-edge-1.yaml';
const BRANCH = 'heads/infrared/register-edge-1';
const PULL_URL = 'https://github.test/acme/gitops/pull/1';
const WRITES = [
  'git/create-tree',
  'git/create-commit',
  'git/create-ref',
  'git/update-ref',
  'git/delete-ref',
];

describe('GithubPublisher: a merge the repository blocks is waited on, not rebuilt', () => {
  const gh = useFakeGithub();

  /** Runs `fn` and returns its result with the requests it made. */
  const during = async <T>(
    fn: () => Promise<T>,
  ): Promise<[T, RecordedRequest[]]> => {
    const from = gh.server.requests.length;
    const result = await fn();
    return [result, gh.server.requests.slice(from)];
  };
  const ofOperation = (requests: RecordedRequest[], ...ids: string[]) =>
    requests.filter(r => ids.includes(r.operationId ?? ''));
  const succeeded = (requests: RecordedRequest[]) =>
    requests.filter(r => r.status < 300);
  const pendingOf = (result: GitopsPublishResult) => ({
    pending: result.pullRequest!,
  });

  it('leaves the pull request open when reviews are required, then checks it without pushing until a human merges it', async () => {
    const repo = gh.server.repo;
    repo.requiredApprovals = 1;
    const publisher = gh.publisher();
    const main = repo.refs.get('heads/main');

    const [first, opening] = await during(() =>
      publisher.publish(registration),
    );
    expect(first).toEqual({
      url: PULL_URL,
      commit: repo.refs.get(BRANCH),
      state: 'open',
      merged: false,
      pullRequest: { number: 1, url: PULL_URL },
    });
    // One commit, one branch write, one merge attempt; no rebuild, no wait.
    expect(succeeded(ofOperation(opening, 'git/create-commit'))).toHaveLength(
      1,
    );
    expect(
      succeeded(ofOperation(opening, 'git/create-ref', 'git/update-ref')),
    ).toHaveLength(1);
    expect(ofOperation(opening, 'pulls/merge')).toHaveLength(1);
    expect(gh.sleeps).toEqual([]);
    expect(repo.pulls).toMatchObject([{ number: 1, state: 'open' }]);
    expect(repo.refs.get('heads/main')).toBe(main);
    expect(gh.logger.text()).toContain(
      `${PULL_URL} (register-edge-1) is left open: GitHub refused to merge it (405 At least 1 approving review is required by reviewers with write access.)`,
    );

    const branchHead = repo.refs.get(BRANCH);
    for (let pass = 0; pass < 3; pass++) {
      const [again, checking] = await during(() =>
        publisher.publish(registration, pendingOf(first)),
      );
      expect(again).toEqual(first);
      expect(ofOperation(checking, ...WRITES)).toEqual([]);
      // Reads, and one merge attempt in case a review arrived.
      expect(
        checking.filter(r => r.method !== 'GET').map(r => r.operationId),
      ).toEqual(['pulls/merge']);
    }
    expect(repo.refs.get(BRANCH)).toBe(branchHead);
    expect(repo.pulls).toHaveLength(1);

    const mergeCommit = repo.mergeByHuman(1);
    const [merged, afterMerge] = await during(() =>
      publisher.publish(registration, pendingOf(first)),
    );
    expect(merged).toEqual({
      url: PULL_URL,
      commit: mergeCommit,
      state: 'merged',
      merged: true,
      pullRequest: { number: 1, url: PULL_URL },
    });
    expect(ofOperation(afterMerge, 'pulls/merge')).toEqual([]);
    expect(ofOperation(afterMerge, ...WRITES).map(r => r.operationId)).toEqual([
      'git/delete-ref',
    ]);
    expect([...repo.refs.keys()]).toEqual(['heads/main']);
    expect(repo.file(APP)).toBe('kind: Application\n');
  });

  it('merges a waiting pull request once its review arrived, without a new commit', async () => {
    const repo = gh.server.repo;
    repo.requiredApprovals = 1;
    const publisher = gh.publisher({ mergeMethod: 'squash' });
    const first = await publisher.publish(registration);
    expect(first.state).toBe('open');

    repo.approve(1);
    const [merged, requests] = await during(() =>
      publisher.publish(registration, pendingOf(first)),
    );
    expect(merged).toMatchObject({
      state: 'merged',
      merged: true,
      commit: repo.refs.get('heads/main'),
      pullRequest: { number: 1 },
    });
    expect(ofOperation(requests, 'pulls/merge')).toMatchObject([
      { status: 200, body: { sha: first.commit, merge_method: 'squash' } },
    ]);
    expect(
      ofOperation(requests, 'git/create-commit', 'git/update-ref'),
    ).toEqual([]);
    expect(repo.file(APP)).toBe('kind: Application\n');
  });

  it('says closed when a human closed the pull request, and writes nothing', async () => {
    const repo = gh.server.repo;
    repo.requiredApprovals = 1;
    const publisher = gh.publisher();
    const first = await publisher.publish(registration);
    repo.closeByHuman(1);

    const [closed, requests] = await during(() =>
      publisher.publish(registration, pendingOf(first)),
    );
    expect(closed).toEqual({
      url: PULL_URL,
      commit: first.commit,
      state: 'closed',
      merged: false,
      pullRequest: { number: 1, url: PULL_URL },
    });
    expect(requests.filter(r => r.method !== 'GET')).toEqual([]);
    expect(repo.pulls).toMatchObject([{ number: 1, state: 'closed' }]);
  });

  it('without a pending pull request, opens a new one beside a closed one of an earlier generation', async () => {
    const repo = gh.server.repo;
    repo.requiredApprovals = 1;
    const publisher = gh.publisher();
    await publisher.publish(registration);
    repo.closeByHuman(1);

    const next = await publisher.publish(registration);
    expect(next).toMatchObject({
      state: 'open',
      pullRequest: {
        number: 2,
        url: 'https://github.test/acme/gitops/pull/2',
      },
    });
    expect(repo.pulls).toMatchObject([
      { number: 1, state: 'closed' },
      { number: 2, state: 'open' },
    ]);
  });

  it('rebuilds the waiting branch once when the wanted files changed, in the same pull request', async () => {
    const repo = gh.server.repo;
    repo.requiredApprovals = 1;
    const publisher = gh.publisher();
    const first = await publisher.publish(registration);
    const changed = {
      ...registration,
      files: { ...registration.files, [APP]: 'kind: Application # v2\n' },
    };

    const [rebuilt, rebuilding] = await during(() =>
      publisher.publish(changed, pendingOf(first)),
    );
    expect(rebuilt).toMatchObject({
      state: 'open',
      pullRequest: { number: 1, url: PULL_URL },
    });
    expect(rebuilt.commit).not.toBe(first.commit);
    expect(rebuilt.commit).toBe(repo.refs.get(BRANCH));
    expect(
      succeeded(ofOperation(rebuilding, 'git/create-commit')),
    ).toHaveLength(1);
    expect(
      succeeded(ofOperation(rebuilding, 'git/create-ref', 'git/update-ref')),
    ).toHaveLength(1);
    expect(repo.file(APP, 'infrared/register-edge-1')).toBe(
      'kind: Application # v2\n',
    );

    const [, checking] = await during(() =>
      publisher.publish(changed, pendingOf(rebuilt)),
    );
    expect(ofOperation(checking, ...WRITES)).toEqual([]);
    expect(repo.pulls).toHaveLength(1);
  });

  it('opens a new pull request when the files changed after a human closed the pending one', async () => {
    const repo = gh.server.repo;
    repo.requiredApprovals = 1;
    const publisher = gh.publisher();
    const first = await publisher.publish(registration);
    repo.closeByHuman(1);
    const result = await publisher.publish(
      { ...registration, files: { [APP]: 'kind: Application # v2\n' } },
      pendingOf(first),
    );
    expect(result).toMatchObject({ state: 'open', pullRequest: { number: 2 } });
    expect(repo.pulls).toMatchObject([
      { number: 1, state: 'closed' },
      { number: 2, state: 'open' },
    ]);
  });

  it('publishes anew when the pending pull request was merged but the files changed since', async () => {
    const repo = gh.server.repo;
    repo.requiredApprovals = 1;
    const publisher = gh.publisher();
    const first = await publisher.publish(registration);
    repo.mergeByHuman(1);
    const result = await publisher.publish(
      { ...registration, files: { [APP]: 'kind: Application # v2\n' } },
      pendingOf(first),
    );
    expect(result).toMatchObject({ state: 'open', pullRequest: { number: 2 } });
    expect(repo.file(APP, 'infrared/register-edge-1')).toBe(
      'kind: Application # v2\n',
    );
  });

  it('rebuilds a waiting pull request that conflicts with its base on the new head', async () => {
    const repo = gh.server.repo;
    repo.requiredApprovals = 1;
    const publisher = gh.publisher();
    const first = await publisher.publish(registration);
    repo.push('main', { [APP]: 'kind: TheirVersion\n', 'theirs.txt': 'x\n' });
    repo.approve(1);

    const result = await publisher.publish(registration, pendingOf(first));
    expect(result).toMatchObject({
      state: 'merged',
      pullRequest: { number: 1 },
    });
    expect(repo.file(APP)).toBe('kind: Application\n');
    expect(repo.file('theirs.txt')).toBe('x\n');
    expect(gh.server.count('git/create-commit')).toBe(2);
    expect(gh.logger.text()).toContain(
      `${PULL_URL} conflicts with main; rebuilding it on the head of main`,
    );
  });

  it('publishes anew when the pending pull request does not exist', async () => {
    const result = await gh.publisher().publish(registration, {
      pending: { url: 'https://github.test/acme/gitops/pull/42' },
    });
    expect(result).toMatchObject({
      state: 'merged',
      pullRequest: { number: 1, url: PULL_URL },
    });
    expect(gh.server.requests).toContainEqual(
      expect.objectContaining({ operationId: 'pulls/get', status: 404 }),
    );
  });

  describe('with autoMerge false', () => {
    it('opens the pull request and never calls the merge endpoint', async () => {
      const repo = gh.server.repo;
      const publisher = gh.publisher({ autoMerge: false });
      const first = await publisher.publish(registration);
      expect(first).toEqual({
        url: PULL_URL,
        commit: repo.refs.get(BRANCH),
        state: 'open',
        merged: false,
        pullRequest: { number: 1, url: PULL_URL },
      });
      expect(gh.logger.text()).toContain(
        'auto-merge is off, it waits for a human to merge it',
      );

      const [, checking] = await during(() =>
        publisher.publish(registration, pendingOf(first)),
      );
      expect(checking.filter(r => r.method !== 'GET')).toEqual([]);

      const mergeCommit = repo.mergeByHuman(1);
      await expect(
        publisher.publish(registration, pendingOf(first)),
      ).resolves.toMatchObject({ state: 'merged', commit: mergeCommit });
      expect(gh.server.count('pulls/merge')).toBe(0);
    });
  });
});

import { Octokit } from '@octokit/rest';
import {
  registration,
  REPO_URL,
  TOKEN,
  useFakeGithub,
} from '../__testUtils__/githubHarness';

const APP = 'registry/clusters/infrared-mgmt/components/cluster-edge-1.yaml';
const README = 'registry/clusters/edge-1/components/README.md';

describe('GithubPublisher', () => {
  const gh = useFakeGithub();

  it('opens a pull request, merges it and deletes the branch', async () => {
    const result = await gh.publisher().publish(registration);
    const repo = gh.server.repo;
    const main = repo.refs.get('heads/main')!;
    expect(result).toEqual({
      url: 'https://github.test/acme/gitops/pull/1',
      commit: main,
      state: 'merged',
      merged: true,
      pullRequest: { number: 1, url: 'https://github.test/acme/gitops/pull/1' },
    });
    expect(repo.file(APP)).toBe('kind: Application\n');
    expect(repo.file(README)).toBe('# edge-1\n');
    expect(repo.commits.get(main)!.parents).toHaveLength(2);
    expect([...repo.refs.keys()]).toEqual(['heads/main']);
    expect(repo.pulls).toMatchObject([
      {
        number: 1,
        head: 'infrared/register-edge-1',
        base: 'main',
        title: registration.title,
        merged: true,
      },
    ]);
    // One commit with both files, through the git data API.
    expect(gh.server.count('git/create-commit')).toBe(1);
    expect(
      gh.server.requests.every(r => r.authorization === `token ${TOKEN}`),
    ).toBe(true);
  });

  it('uses the configured merge method', async () => {
    await gh.publisher({ mergeMethod: 'squash' }).publish(registration);
    const main = gh.server.repo.refs.get('heads/main')!;
    expect(gh.server.repo.commits.get(main)!.parents).toHaveLength(1);
    expect(
      gh.server.requests.find(r => r.operationId === 'pulls/merge')?.body,
    ).toMatchObject({
      merge_method: 'squash',
    });
  });

  it('makes no branch and no pull request when the files are already on the default branch', async () => {
    gh.server.repo.push('main', registration.files, 'By hand');
    const head = gh.server.repo.refs.get('heads/main')!;
    const result = await gh.publisher().publish(registration);
    expect(result).toEqual({
      url: `https://github.test/acme/gitops/commit/${head}`,
      commit: head,
      state: 'merged',
      merged: true,
    });
    expect(gh.server.count('git/create-ref')).toBe(0);
    expect(gh.server.count('pulls/create')).toBe(0);
    expect(gh.server.repo.refs.get('heads/main')).toBe(head);
  });

  it('publishes the same key twice as one pull request', async () => {
    const first = await gh.publisher().publish(registration);
    const second = await gh.publisher().publish(registration);
    expect(second.commit).toBe(first.commit);
    expect(gh.server.repo.pulls).toHaveLength(1);
  });

  it('reuses the open pull request of the key (a restart in the middle), never a second one', async () => {
    const repo = gh.server.repo;
    const stale = repo.commit(
      { [APP]: 'kind: Old\n' },
      [repo.refs.get('heads/main')!],
      'old',
    );
    repo.refs.set('heads/infrared/register-edge-1', stale);
    repo.pulls.push({
      number: 1,
      head: 'infrared/register-edge-1',
      base: 'main',
      title: 'Old title',
      body: '',
      state: 'open',
      merged: false,
    });
    const result = await gh.publisher().publish(registration);
    expect(result.pullRequest).toEqual({
      number: 1,
      url: 'https://github.test/acme/gitops/pull/1',
    });
    expect(gh.server.count('pulls/create')).toBe(0);
    expect(repo.pulls).toHaveLength(1);
    expect(repo.pulls[0]).toMatchObject({
      title: registration.title,
      body: registration.body,
      merged: true,
    });
    expect(repo.file(APP)).toBe('kind: Application\n');
  });

  it('takes over a branch left without a pull request (a crash after the push)', async () => {
    const repo = gh.server.repo;
    const main = repo.refs.get('heads/main')!;
    repo.refs.set(
      'heads/infrared/register-edge-1',
      repo.commit({ x: 'half\n' }, [main], 'half'),
    );
    await gh.publisher().publish(registration);
    expect(repo.pulls).toMatchObject([{ number: 1, merged: true }]);
    expect(repo.file('x')).toBeUndefined();
    expect(repo.file(APP)).toBe('kind: Application\n');
  });

  it('deletes files, and only those that exist', async () => {
    const repo = gh.server.repo;
    repo.push('main', { 'old/a.yaml': 'a\n', 'old/b.yaml': 'b\n' });
    await gh.publisher().publish({
      key: 'cleanup',
      title: 'Clean up',
      body: '',
      files: {},
      deletions: ['old/a.yaml', 'old/never.yaml'],
    });
    expect(repo.file('old/a.yaml')).toBeUndefined();
    expect(repo.file('old/b.yaml')).toBe('b\n');
  });

  it.each([
    ['one tree read', false, { 'git/get-tree': 1, 'repos/get-content': 0 }],
    [
      'a read per path when GitHub truncates the tree',
      true,
      { 'git/get-tree': 1, 'repos/get-content': 2 },
    ],
  ])(
    'finds the paths a removal deletes with %s',
    async (_, truncated, reads) => {
      const repo = gh.server.repo;
      repo.push('main', { 'old/a.yaml': 'a\n', 'old/b.yaml': 'b\n' });
      gh.server.truncateTrees = truncated;
      await gh.publisher().publish({
        key: 'cleanup',
        title: 'Clean up',
        body: '',
        files: {},
        deletions: ['old/a.yaml', 'old/never.yaml'],
      });
      expect(repo.file('old/a.yaml')).toBeUndefined();
      expect(repo.file('old/b.yaml')).toBe('b\n');
      for (const [operation, count] of Object.entries(reads)) {
        expect(gh.server.count(operation)).toBe(count);
      }
    },
  );

  it('reads the repository once for many publishes', async () => {
    const publisher = gh.publisher();
    await publisher.describe();
    for (const n of [1, 2, 3]) {
      await publisher.publish({ ...registration, key: `register-${n}` });
    }
    expect(gh.server.count('repos/get')).toBe(1);
  });

  it('describes the repository for the UI', async () => {
    await expect(gh.publisher().describe()).resolves.toEqual({
      type: 'github',
      repoUrl: REPO_URL,
      defaultBranch: 'main',
      fileUrlPrefix: 'https://github.test/acme/gitops/blob/main/',
    });
    await expect(
      gh.publisher({ branch: 'release' }).describe(),
    ).resolves.toMatchObject({
      defaultBranch: 'release',
    });
  });

  it('has a fake GitHub that refuses requests its OpenAPI description does not allow', async () => {
    const octokit = new Octokit({
      auth: TOKEN,
      baseUrl: gh.server.apiBaseUrl,
      log: { debug() {}, info() {}, warn() {}, error() {} },
    });
    await expect(
      octokit.request('PUT /repos/{owner}/{repo}/pulls/{pull_number}/merge', {
        owner: 'acme',
        repo: 'gitops',
        pull_number: 1,
        // Octokit's types refuse it too; GitHub's description is what the fake checks.
        merge_method: 'fast-forward' as 'merge',
      }),
    ).rejects.toMatchObject({ status: 400 });
    await expect(
      octokit.request('GET /repos/{owner}/{repo}/pull-requests', {
        owner: 'acme',
        repo: 'gitops',
      }),
    ).rejects.toMatchObject({
      status: 404,
    });
    expect(gh.server.violations).toEqual([
      expect.stringMatching(
        /PUT \/repos\/\{owner\}\/\{repo\}\/pulls\/\{pull_number\}\/merge body: .*merge_method/,
      ),
      expect.stringMatching(
        /GET \/api\/v3\/repos\/acme\/gitops\/pull-requests: no such operation/,
      ),
    ]);
    gh.server.violations.length = 0; // seen; the harness fails any test that leaves one
  });
});

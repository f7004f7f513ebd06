import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bare, tempDir } from '../__testUtils__/gitRepos';
import { KeyedLock } from '@infrared-clusters/infrared-kube';
import { LocalGitPublisher } from './LocalGitPublisher';

const change = (
  key: string,
  files: Record<string, string>,
  deletions?: string[],
) => ({
  key,
  title: `Change ${key}`,
  body: `Body of ${key}`,
  files,
  deletions,
});

// Real git processes; generous for a busy CI machine.
jest.setTimeout(60_000);

describe('LocalGitPublisher', () => {
  let dir: ReturnType<typeof tempDir>;
  let path: string;
  beforeEach(() => {
    dir = tempDir();
    path = join(dir.path, 'nested', 'gitops.git');
  });
  afterEach(() => dir.cleanup());

  it('creates the bare repository with an initial commit on main', async () => {
    const publisher = new LocalGitPublisher({ path });
    await expect(publisher.describe()).resolves.toEqual({
      type: 'local',
      repoUrl: `file://${path}`,
      defaultBranch: 'main',
    });
    await expect(publisher.listPullRequests()).resolves.toEqual([]);
    const repo = bare(path);
    expect(repo.run('rev-parse', '--is-bare-repository')).toBe('true');
    expect(repo.run('symbolic-ref', 'HEAD')).toBe('refs/heads/main');
    expect(repo.count()).toBe(1);
    expect(repo.show('README.md')).toMatch(/Gitops repository/);
  });

  it('lands a change as a --no-ff merge of a branch, then deletes the branch', async () => {
    const publisher = new LocalGitPublisher({ path });
    await publisher.listPullRequests();
    const repo = bare(path);
    const before = repo.head();
    const result = await publisher.publish(
      change('register-edge-1', {
        'registry/a.yaml': 'a: 1\n',
        'registry/b/README.md': '# b\n',
      }),
    );
    expect(result).toEqual({
      url: `file://${path}#${result.commit}`,
      commit: repo.head(),
      state: 'merged',
      merged: true,
      pullRequest: { number: 1, url: `file://${path}#${result.commit}` },
    });
    const [first, second] = repo.parents();
    expect(first).toBe(before);
    expect(repo.parents(second)).toEqual([before]);
    expect(repo.run('log', '-1', '--format=%s', 'main')).toBe(
      'Merge pull request #1 from infrared/register-edge-1',
    );
    expect(repo.run('log', '-1', '--format=%B', second)).toMatch(
      /^Change register-edge-1\n\nBody of/,
    );
    expect(repo.show('registry/a.yaml')).toBe('a: 1');
    expect(repo.show('registry/b/README.md')).toBe('# b');
    expect(repo.branches()).toEqual(['refs/heads/main']);
    await expect(publisher.listPullRequests()).resolves.toEqual([
      {
        number: 1,
        key: 'register-edge-1',
        title: 'Change register-edge-1',
        branch: 'infrared/register-edge-1',
        merged: true,
        closed: false,
        commit: result.commit,
      },
    ]);
  });

  it('makes one commit for the same key published twice, and a new one when the content changes', async () => {
    const publisher = new LocalGitPublisher({ path });
    const first = await publisher.publish(change('k', { 'x.yaml': 'v: 1\n' }));
    const count = bare(path).count();
    const again = await publisher.publish(change('k', { 'x.yaml': 'v: 1\n' }));
    expect(again).toEqual(first);
    expect(bare(path).count()).toBe(count);

    const changed = await publisher.publish(
      change('k', { 'x.yaml': 'v: 2\n' }),
    );
    expect(changed.commit).not.toBe(first.commit);
    expect(changed.pullRequest?.number).toBe(2);
    expect(bare(path).show('x.yaml')).toBe('v: 2');
  });

  it('lands concurrent publishes of different keys, each as its own pull request', async () => {
    const publisher = new LocalGitPublisher({ path });
    const keys = ['a', 'b', 'c', 'd', 'e'];
    const results = await Promise.all(
      keys.map(k =>
        publisher.publish(change(k, { [`f/${k}.yaml`]: `${k}\n` })),
      ),
    );
    const repo = bare(path);
    for (const k of keys) expect(repo.show(`f/${k}.yaml`)).toBe(k);
    expect(repo.merges()).toBe(5);
    expect(results.map(r => r.pullRequest?.number).sort()).toEqual([
      1, 2, 3, 4, 5,
    ]);
  });

  it('lands concurrent publishes from writers that do not share a lock (other processes)', async () => {
    // Separate mutexes: the only protection left is the compare-and-swap of main.
    const writers = [0, 1, 2].map(
      () =>
        new LocalGitPublisher({
          path,
          mutex: new KeyedLock(),
          maxAttempts: 20,
        }),
    );
    await writers[0].listPullRequests();
    await Promise.all(
      writers.flatMap((w, i) =>
        [0, 1].map(j =>
          w.publish(change(`w${i}-${j}`, { [`w/${i}-${j}`]: `${i}${j}\n` })),
        ),
      ),
    );
    const repo = bare(path);
    expect(repo.merges()).toBe(6);
    for (const i of [0, 1, 2])
      for (const j of [0, 1]) expect(repo.show(`w/${i}-${j}`)).toBe(`${i}${j}`);
    const numbers = (await writers[0].listPullRequests()).map(p => p.number);
    expect(numbers).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('deletes files, and a repeated deletion makes no commit', async () => {
    const publisher = new LocalGitPublisher({ path });
    await publisher.publish(change('add', { 'd/one': '1\n', 'd/two': '2\n' }));
    const removed = await publisher.publish(
      change('remove', {}, ['d/one', 'never-there']),
    );
    const repo = bare(path);
    expect(repo.exists('d/one')).toBe(false);
    expect(repo.show('d/two')).toBe('2');
    expect(removed.pullRequest?.number).toBe(2);
    const again = await publisher.publish(change('remove', {}, ['d/one']));
    expect(again.commit).toBe(removed.commit);
    expect(repo.head()).toBe(removed.commit);
  });

  it('ignores the git configuration of the machine (signing, identity)', async () => {
    const config = join(dir.path, 'gitconfig');
    writeFileSync(
      config,
      '[commit]\n\tgpgsign = true\n[gpg]\n\tprogram = /bin/false\n',
    );
    const saved = process.env.GIT_CONFIG_GLOBAL;
    process.env.GIT_CONFIG_GLOBAL = config;
    try {
      const publisher = new LocalGitPublisher({
        path,
        identity: { name: 'Bot', email: 'bot@x' },
      });
      await publisher.publish(change('k', { f: 'x\n' }));
    } finally {
      process.env.GIT_CONFIG_GLOBAL = saved;
    }
    expect(bare(path).run('log', '-1', '--format=%an <%ae>')).toBe(
      'Bot <bot@x>',
    );
  });

  it('refuses an invalid change before touching the repository', async () => {
    const publisher = new LocalGitPublisher({ path });
    await expect(
      publisher.publish(change('k', { '../escape': 'x' })),
    ).rejects.toThrow(/invalid path/);
    expect(existsSync(path)).toBe(false);
  });
});

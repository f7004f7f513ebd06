import childProcess, { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import type { GitopsChange } from '@infrared-clusters/plugin-infrared-node';
import { bare, git, pushFromClone, tempDir } from '../__testUtils__/gitRepos';
import { LocalGitPublisher } from './LocalGitPublisher';

// Real git processes; generous for a busy CI machine.
jest.setTimeout(60_000);

const register = (name: string): GitopsChange => ({
  key: `register-${name}`,
  title: `Register ${name}`,
  body: `Adds ${name}`,
  files: {
    [`registry/clusters/mgmt/components/cluster-${name}.yaml`]: `name: ${name}\n`,
    [`registry/clusters/${name}/components/README.md`]: `# ${name}\n`,
  },
});

/** The git processes (their command) the publishes in `fn` start. */
async function gitProcesses(fn: () => Promise<unknown>): Promise<string[]> {
  const spies = [
    jest.spyOn(childProcess, 'execFile'),
    jest.spyOn(childProcess, 'spawn'),
  ];
  try {
    await fn();
    return spies
      .flatMap(spy => spy.mock.calls as unknown as Array<[string, string[]]>)
      .filter(([file]) => file === 'git')
      .map(
        ([, args]) => args[args.findIndex(a => a.startsWith('--git-dir=')) + 1],
      );
  } finally {
    spies.forEach(spy => spy.mockRestore());
  }
}

/** The tree git itself makes of `files` (its own index and write-tree), to compare ours with. */
function treeByGit(path: string, files: Record<string, string>): string {
  const env = { ...process.env, GIT_INDEX_FILE: join(path, 'test-index') };
  const run = (args: string[], input?: string) =>
    execFileSync('git', [`--git-dir=${path}`, ...args], {
      env,
      input,
      encoding: 'utf8',
    }).trim();
  run(['read-tree', '--empty']);
  for (const [file, content] of Object.entries(files)) {
    const blob = run(['hash-object', '-w', '--stdin'], content);
    run(['update-index', '--add', '--cacheinfo', `100644,${blob},${file}`]);
  }
  return run(['write-tree']);
}

describe('LocalGitPublisher, the trees kept between publishes', () => {
  let dir: ReturnType<typeof tempDir>;
  let path: string;
  beforeEach(() => {
    dir = tempDir();
    path = join(dir.path, 'gitops.git');
  });
  afterEach(() => dir.cleanup());

  it('writes objects and commits in this process: on top of its own last merge, two git processes at most', async () => {
    const publisher = new LocalGitPublisher({ path });
    expect(
      await gitProcesses(() => publisher.publish(register('a'))),
    ).toContain('cat-file');
    // the pull request numbers, and one update-ref for the branch, then the merge (each a compare-and-swap),
    // none when the first publish's is still up
    const processes = await gitProcesses(() =>
      publisher.publish(register('b')),
    );
    expect(processes.filter(p => p !== 'update-ref')).toEqual(['for-each-ref']);
    expect(processes.length).toBeLessThanOrEqual(2);
    const repo = bare(path);
    expect(repo.show('registry/clusters/a/components/README.md')).toBe('# a');
    expect(repo.show('registry/clusters/b/components/README.md')).toBe('# b');
  });

  it('makes the trees git makes, in git order, and a repository git fsck --strict accepts', async () => {
    const publisher = new LocalGitPublisher({ path });
    // names whose order differs between a file and a directory of the same prefix, and non-ASCII ones
    const names = ['a', 'a-b', 'a.c', 'a0', 'ä', 'z', 'Z', 'é-1', 'b'];
    for (const name of names) await publisher.publish(register(name));
    await publisher.publish({
      key: 'odd-files',
      title: 'Odd files',
      body: '',
      files: { a: 'a file beside a/\n', 'a.b/c': 'c\n', 'a-/x': 'x\n' },
    });
    await publisher.publish({
      key: 'remove-b',
      title: 'Remove b',
      body: '',
      files: { 'registry/clusters/a/components/README.md': '# a again\n' },
      deletions: [
        'registry/clusters/b/components/README.md',
        'registry/clusters/mgmt/components/cluster-b.yaml',
        'not/there.yaml',
      ],
    });
    const expected: Record<string, string> = {
      'README.md': `${bare(path).show('README.md')}\n`,
      a: 'a file beside a/\n',
      'a.b/c': 'c\n',
      'a-/x': 'x\n',
    };
    for (const name of names.filter(n => n !== 'b')) {
      Object.assign(expected, register(name).files);
    }
    expected['registry/clusters/a/components/README.md'] = '# a again\n';

    const repo = bare(path);
    expect(repo.run('rev-parse', 'main^{tree}')).toBe(
      treeByGit(path, expected),
    );
    expect(repo.run('fsck', '--strict', '--no-dangling')).toBe('');
    expect(repo.show('registry/clusters/ä/components/README.md')).toBe('# ä');
    expect(repo.exists('registry/clusters/b')).toBe(false);
    expect(repo.run('log', '--format=%an <%ae> %s', '-1', 'main')).toBe(
      'Infrared <infrared@localhost> Merge pull request #11 from infrared/remove-b',
    );
  });

  it('reads the trees again when another writer moved the default branch, and keeps their files', async () => {
    const publisher = new LocalGitPublisher({ path });
    const other = new LocalGitPublisher({ path });
    await publisher.publish(register('a'));
    await other.publish(register('b'));
    pushFromClone(
      path,
      { 'registry/clusters/mgmt/components/theirs.yaml': 'kept\n' },
      'Their change',
    );
    expect(
      await gitProcesses(() => publisher.publish(register('c'))),
    ).toContain('cat-file');
    await other.publish(register('d'));
    const repo = bare(path);
    for (const name of ['a', 'b', 'c', 'd']) {
      expect(repo.show(`registry/clusters/${name}/components/README.md`)).toBe(
        `# ${name}`,
      );
    }
    expect(repo.show('registry/clusters/mgmt/components/theirs.yaml')).toBe(
      'kept',
    );
    expect(
      git([`--git-dir=${path}`, 'fsck', '--strict', '--no-dangling']),
    ).toBe('');
  });

  it('detects a writer that moves the branch between its head and its merge, and merges on their commit', async () => {
    let theirs: string | undefined;
    const publisher = new LocalGitPublisher({
      path,
      beforeMerge: async branch => {
        if (branch === 'infrared/register-c') {
          theirs ??= pushFromClone(
            path,
            { 'registry/clusters/mgmt/components/theirs.yaml': 'kept\n' },
            'Their change',
          );
        }
      },
    });
    await publisher.publish(register('a'));
    await publisher.publish(register('b'));
    await publisher.publish(register('c'));
    const repo = bare(path);
    expect(repo.parents()[0]).toBe(theirs);
    for (const name of ['a', 'b', 'c']) {
      expect(
        repo.show(`registry/clusters/mgmt/components/cluster-${name}.yaml`),
      ).toBe(`name: ${name}`);
    }
    expect(repo.show('registry/clusters/mgmt/components/theirs.yaml')).toBe(
      'kept',
    );
  });
});

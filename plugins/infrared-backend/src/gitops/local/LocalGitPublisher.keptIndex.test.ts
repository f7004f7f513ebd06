import { join } from 'node:path';
import { bare, pushFromClone, tempDir } from '../__testUtils__/gitRepos';
import { Git } from './git';
import { LocalGitPublisher } from './LocalGitPublisher';

// Real git processes; generous for a busy CI machine.
jest.setTimeout(60_000);

const register = (name: string) => ({
  key: `register-${name}`,
  title: `Register ${name}`,
  body: `Adds ${name}`,
  files: { [`registry/clusters/${name}/README.md`]: `# ${name}\n` },
});

/** The git commands (their first word) the publishes in `fn` run. */
async function gitCommands(fn: () => Promise<unknown>): Promise<string[]> {
  const spy = jest.spyOn(Git.prototype, 'run');
  try {
    await fn();
    return spy.mock.calls.map(([args]) => args[0]);
  } finally {
    spy.mockRestore();
  }
}

describe('LocalGitPublisher, the index kept between publishes', () => {
  let dir: ReturnType<typeof tempDir>;
  let path: string;
  beforeEach(() => {
    dir = tempDir();
    path = join(dir.path, 'gitops.git');
  });
  afterEach(() => dir.cleanup());

  it('stages a change on top of its own last merge without reading the whole tree again', async () => {
    const publisher = new LocalGitPublisher({ path });
    expect(await gitCommands(() => publisher.publish(register('a')))).toContain(
      'read-tree',
    );
    expect(
      await gitCommands(() => publisher.publish(register('b'))),
    ).not.toContain('read-tree');
    const repo = bare(path);
    expect(repo.show('registry/clusters/a/README.md')).toBe('# a');
    expect(repo.show('registry/clusters/b/README.md')).toBe('# b');
  });

  it('reads the tree again when another writer moved the default branch, and keeps its files', async () => {
    const publisher = new LocalGitPublisher({ path });
    const other = new LocalGitPublisher({ path });
    await publisher.publish(register('a'));
    await other.publish(register('b'));
    pushFromClone(path, { 'theirs.txt': 'kept\n' }, 'Their change');
    expect(await gitCommands(() => publisher.publish(register('c')))).toContain(
      'read-tree',
    );
    await other.publish(register('d'));
    const repo = bare(path);
    for (const name of ['a', 'b', 'c', 'd']) {
      expect(repo.show(`registry/clusters/${name}/README.md`)).toBe(
        `# ${name}`,
      );
    }
    expect(repo.show('theirs.txt')).toBe('kept');
  });
});

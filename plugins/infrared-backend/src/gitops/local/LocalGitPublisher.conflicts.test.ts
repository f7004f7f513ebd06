import { join } from 'node:path';
import { captureLogger } from '../__testUtils__/captureLogger';
import { bare, pushFromClone, tempDir } from '../__testUtils__/gitRepos';
import { KeyedLock } from '@infrared-clusters/infrared-kube';
import { LocalGitPublisher } from './LocalGitPublisher';

// Real git processes; generous for a busy CI machine.
jest.setTimeout(60_000);

const change = {
  key: 'register-edge-1',
  title: 'Register edge-1',
  body: 'Adds the app-of-apps.',
  files: { 'registry/shared.yaml': 'owner: infrared\n' },
};

describe('LocalGitPublisher when the default branch moves', () => {
  let dir: ReturnType<typeof tempDir>;
  let path: string;
  beforeEach(() => {
    dir = tempDir();
    path = join(dir.path, 'gitops.git');
  });
  afterEach(() => dir.cleanup());

  it('rebuilds on the new head when someone pushes a conflicting change before the merge', async () => {
    let theirs: string | undefined;
    const logger = captureLogger();
    const publisher = new LocalGitPublisher({
      path,
      logger,
      beforeMerge: async () => {
        // Someone else edits the same file (and another one) on main from their clone, once.
        theirs ??= pushFromClone(
          path,
          {
            'registry/shared.yaml': 'owner: someone\n',
            'theirs.txt': 'kept\n',
          },
          'Their change',
        );
      },
    });
    const result = await publisher.publish(change);

    const repo = bare(path);
    expect(result.commit).toBe(repo.head());
    expect(repo.parents()[0]).toBe(theirs);
    expect(repo.show('registry/shared.yaml')).toBe('owner: infrared');
    expect(repo.show('theirs.txt')).toBe('kept');
    expect(repo.merges()).toBe(1);
    expect(repo.branches()).toEqual(['refs/heads/main']);
    // The same pull request was reused for the second attempt, not a new one.
    const pulls = await publisher.listPullRequests();
    expect(pulls.map(p => [p.number, p.merged])).toEqual([[1, true]]);
    expect(logger.text()).toMatch(/main moved while merging "register-edge-1"/);
  });

  it('gives up after the bounded attempts, and a restarted backend finishes the same pull request', async () => {
    let pushes = 0;
    const crowded = new LocalGitPublisher({
      path,
      maxAttempts: 3,
      beforeMerge: async () => {
        pushes += 1;
        pushFromClone(path, { [`noise-${pushes}`]: `${pushes}\n` }, 'noise');
      },
    });
    await expect(crowded.publish(change)).rejects.toThrow(
      /main of .* kept moving; gave up merging "register-edge-1" after 3 attempts/,
    );
    expect(pushes).toBe(3);
    const open = await crowded.listPullRequests();
    expect(open.map(p => [p.number, p.merged, p.key])).toEqual([
      [1, false, 'register-edge-1'],
    ]);
    expect(bare(path).branches()).toContain(
      'refs/heads/infrared/register-edge-1',
    );

    const restarted = new LocalGitPublisher({ path });
    const result = await restarted.publish(change);
    expect(result.pullRequest?.number).toBe(1);
    expect(
      (await restarted.listPullRequests()).map(p => [p.number, p.merged]),
    ).toEqual([[1, true]]);
    expect(bare(path).show('registry/shared.yaml')).toBe('owner: infrared');
    expect(bare(path).branches()).toEqual(['refs/heads/main']);
  });

  it('closes its pull request when another writer lands the same files first (another replica), and opens a new one for new content', async () => {
    let theirs: Promise<unknown> | undefined;
    // a race on purpose: neither takes turns with the other
    const other = new LocalGitPublisher({
      path,
      mutex: new KeyedLock(),
      processLock: false,
    });
    const mine = new LocalGitPublisher({
      path,
      mutex: new KeyedLock(),
      processLock: false,
      beforeMerge: async () => {
        theirs ??= other.publish({ ...change, key: 'batch-of-theirs' });
        await theirs;
      },
    });
    const result = await mine.publish(change);

    const repo = bare(path);
    expect(result.commit).toBe(repo.head());
    expect(repo.merges()).toBe(1);
    expect(repo.branches()).toEqual(['refs/heads/main']);
    const pulls = await mine.listPullRequests();
    expect(pulls.map(p => [p.number, p.key, p.merged, p.closed])).toEqual([
      [1, 'register-edge-1', false, true],
      [2, 'batch-of-theirs', true, false],
    ]);

    // a closed pull request is not reopened: new content gets a new one
    const next = await mine.publish({
      ...change,
      files: { 'registry/shared.yaml': 'owner: infrared-2\n' },
    });
    expect(next.pullRequest?.number).toBe(3);
    expect(
      (await mine.listPullRequests()).map(p => [p.number, p.merged]),
    ).toEqual([
      [1, false],
      [2, true],
      [3, true],
    ]);
  });

  it('returns the existing commit when someone else already wrote the same content', async () => {
    const publisher = new LocalGitPublisher({ path });
    await publisher.listPullRequests();
    const theirs = pushFromClone(path, change.files, 'Same content by hand');
    const result = await publisher.publish(change);
    expect(result).toEqual({
      url: `file://${path}#${theirs}`,
      commit: theirs,
      state: 'merged',
      merged: true,
      pullRequest: undefined,
    });
    expect(await publisher.listPullRequests()).toEqual([]);
  });
});

import { join } from 'node:path';
import type {
  GitopsChange,
  GitopsPublisher,
} from '@infrared-clusters/plugin-infrared-node';
import { bare, tempDir } from '../__testUtils__/gitRepos';
import { LocalGitPublisher } from '../local/LocalGitPublisher';
import { BatchingPublisher, combineChanges } from './BatchingPublisher';

const register = (name: string): GitopsChange => ({
  key: `register-cluster-${name}`,
  title: `Register cluster ${name}`,
  body: `Adds ${name}`,
  files: {
    [`clusters/${name}/app-of-apps.yaml`]: `name: ${name}\n`,
    [`clusters/${name}/README.md`]: `# ${name}\n`,
  },
});

// Real git processes; generous for a busy CI machine.
jest.setTimeout(60_000);

describe('BatchingPublisher on a real local gitops repository', () => {
  let dir: ReturnType<typeof tempDir>;
  let path: string;
  let local: LocalGitPublisher;
  beforeEach(async () => {
    dir = tempDir();
    path = join(dir.path, 'gitops.git');
    local = new LocalGitPublisher({ path });
    await local.describe();
  });
  afterEach(() => dir.cleanup());

  it('publishes a change that arrives alone under its own key, as one pull request', async () => {
    const publisher = new BatchingPublisher(local, { maxFilesPerChange: 100 });
    const result = await publisher.publish(register('solo'));
    expect(result.state).toBe('merged');
    const pulls = await local.listPullRequests();
    expect(pulls.map(p => p.key)).toEqual(['register-cluster-solo']);
    expect(bare(path).show('clusters/solo/README.md')).toBe('# solo');
  });

  it('publishes 40 registrations arriving at once as a few changes, every file on main', async () => {
    const publisher = new BatchingPublisher(local, { maxFilesPerChange: 30 });
    const names = Array.from({ length: 40 }, (_, i) => `edge-${i}`);
    const results = await Promise.all(
      names.map(n => publisher.publish(register(n))),
    );
    expect(results.every(r => r.state === 'merged')).toBe(true);
    const pulls = await local.listPullRequests();
    // 80 files at 30 a change: at least 3 changes, far fewer than 40.
    expect(pulls.length).toBeGreaterThanOrEqual(3);
    expect(pulls.length).toBeLessThanOrEqual(6);
    const repo = bare(path);
    for (const n of names) {
      expect(repo.show(`clusters/${n}/app-of-apps.yaml`)).toBe(`name: ${n}`);
    }
    // every caller learns the commit that holds its files
    for (const [i, n] of names.entries()) {
      expect(
        repo.run('show', `${results[i].commit}:clusters/${n}/README.md`),
      ).toBe(`# ${n}`);
    }
  });

  it('on close: the batch under way lands, what is queued fails, and the repository is closed', async () => {
    const publisher = new BatchingPublisher(local, {
      maxFilesPerChange: 100,
      burstQuietMs: 5_000,
    });
    const started = new Promise<void>(resolve => {
      const publish = local.publish.bind(local);
      jest.spyOn(local, 'publish').mockImplementation((change, options) => {
        resolve();
        return publish(change, options);
      });
    });
    const first = publisher.publish(register('first'));
    await started;
    // arriving while 'first' is published: a burst, which waits 5 s of quiet
    const queued = publisher.publish(register('queued'));
    const closing = publisher.close();
    await expect(queued).rejects.toThrow(/publisher is closed/);
    expect((await first).state).toBe('merged');
    await closing;
    await expect(local.publish(register('late'))).rejects.toThrow(
      /publisher is closed/,
    );
    expect(bare(path).show('clusters/first/README.md')).toBe('# first');
    expect((await local.listPullRequests()).map(p => p.key)).toEqual([
      'register-cluster-first',
    ]);
  });

  it('keeps two changes to the same path in order: the later one wins', async () => {
    const publisher = new BatchingPublisher(local, { maxFilesPerChange: 100 });
    const removal: GitopsChange = {
      key: 'remove-cluster-a',
      title: 'Remove cluster a',
      body: '',
      files: {},
      deletions: ['clusters/a/app-of-apps.yaml', 'clusters/a/README.md'],
    };
    await Promise.all([
      publisher.publish(register('a')),
      publisher.publish(removal),
      publisher.publish(register('b')),
    ]);
    const repo = bare(path);
    expect(repo.exists('clusters/a')).toBe(false);
    expect(repo.exists('clusters/b/README.md')).toBe(true);
  });
});

describe('BatchingPublisher', () => {
  const recording = (fail?: Error) => {
    const published: GitopsChange[] = [];
    const inner: GitopsPublisher = {
      async publish(change) {
        published.push(change);
        if (fail) throw fail;
        return { url: 'u', commit: 'c', state: 'merged', merged: true };
      },
      describe: async () => ({
        type: 'local',
        repoUrl: 'file:///r',
        defaultBranch: 'main',
      }),
    };
    return { inner, published };
  };

  it('hands a change with a pending pull request straight through, never batched', async () => {
    const { inner, published } = recording();
    const publisher = new BatchingPublisher(inner, { maxFilesPerChange: 100 });
    await Promise.all([
      publisher.publish(register('a'), { pending: { number: 7, url: 'p' } }),
      publisher.publish(register('b'), { pending: { number: 8, url: 'q' } }),
    ]);
    expect(published.map(c => c.key)).toEqual([
      'register-cluster-a',
      'register-cluster-b',
    ]);
  });

  it('rejects every caller of a batch whose publish failed', async () => {
    const { inner } = recording(new Error('push refused'));
    const publisher = new BatchingPublisher(inner, { maxFilesPerChange: 100 });
    const outcomes = await Promise.allSettled([
      publisher.publish(register('a')),
      publisher.publish(register('b')),
    ]);
    expect(outcomes.map(o => o.status)).toEqual(['rejected', 'rejected']);
  });

  it('gives the same set of changes the same key, whatever their order', () => {
    const one = combineChanges([register('a'), register('b')]);
    const two = combineChanges([register('b'), register('a')]);
    expect(one.key).toBe(two.key);
    expect(one.key).not.toBe(combineChanges([register('a')]).key);
    expect(one.title).toBe(
      'Infrared: 2 changes (register-cluster-a, register-cluster-b)',
    );
    expect(Object.keys(one.files)).toHaveLength(4);
  });
});

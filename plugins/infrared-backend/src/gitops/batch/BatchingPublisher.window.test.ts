import type {
  GitopsChange,
  GitopsPublisher,
} from '@infrared-clusters/plugin-infrared-node';
import { BatchingPublisher } from './BatchingPublisher';

const register = (name: string): GitopsChange => ({
  key: `register-cluster-${name}`,
  title: `Register cluster ${name}`,
  body: `Adds ${name}`,
  files: {
    [`clusters/${name}/app-of-apps.yaml`]: `name: ${name}\n`,
    [`clusters/${name}/README.md`]: `# ${name}\n`,
  },
});

/** A publisher whose every publish takes `ms` (of the fake clock), as a pull request does; records each change. */
function slowPublisher(ms: number) {
  const published: GitopsChange[] = [];
  const inner: GitopsPublisher = {
    async publish(change) {
      published.push(change);
      await new Promise(r => setTimeout(r, ms));
      return { url: 'u', commit: 'c', state: 'merged', merged: true };
    },
    describe: async () => ({
      type: 'local',
      repoUrl: 'file:///r',
      defaultBranch: 'main',
    }),
  };
  return { inner, published };
}

/** Publishes `count` registrations, one every `everyMs`, and lets the clock run until all are published. */
async function arrive(
  publisher: BatchingPublisher,
  count: number,
  everyMs: number,
) {
  const results: Promise<unknown>[] = [];
  for (let i = 0; i < count; i++) {
    results.push(publisher.publish(register(`edge-${i}`)));
    await jest.advanceTimersByTimeAsync(everyMs);
  }
  await jest.advanceTimersByTimeAsync(60_000);
  return Promise.all(results);
}

describe('BatchingPublisher window', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('keeps a burst together: one registration every 100 ms for 20 s lands in a few batches', async () => {
    const { inner, published } = slowPublisher(300);
    const publisher = new BatchingPublisher(inner, { maxFilesPerChange: 1000 });
    const results = await arrive(publisher, 200, 100);
    expect(results).toHaveLength(200);
    // the first alone (nothing told it a burst was coming), then windows of up to 30 s
    expect(published.length).toBeLessThanOrEqual(4);
    const keys = published.flatMap(c =>
      Object.keys(c.files).filter(p => p.endsWith('README.md')),
    );
    expect(new Set(keys).size).toBe(200);
  });

  it('publishes a full batch at once, without waiting for the burst to pause', async () => {
    const { inner, published } = slowPublisher(300);
    // 10 registrations of 2 files a batch
    const publisher = new BatchingPublisher(inner, { maxFilesPerChange: 20 });
    await arrive(publisher, 41, 50);
    expect(published.map(c => Object.keys(c.files).length)).toEqual([
      2, 20, 20, 20, 20,
    ]);
  });

  it('publishes a lone registration on a quiet system at once, also after a burst ended', async () => {
    const { inner, published } = slowPublisher(300);
    const publisher = new BatchingPublisher(inner, { maxFilesPerChange: 1000 });
    await arrive(publisher, 30, 100);
    const before = published.length;
    const lone = publisher.publish(register('lone'));
    await jest.advanceTimersByTimeAsync(10);
    expect(published).toHaveLength(before + 1);
    expect(published[before].key).toBe('register-cluster-lone');
    await jest.advanceTimersByTimeAsync(300);
    await expect(lone).resolves.toMatchObject({ state: 'merged' });
  });
});

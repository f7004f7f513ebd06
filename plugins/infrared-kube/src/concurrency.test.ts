import { forEachLimited, KeyedLock } from './concurrency';

const tick = () => new Promise(r => setTimeout(r, 1));

describe('forEachLimited', () => {
  it('runs every item in order with at most `limit` at once', async () => {
    let running = 0;
    let most = 0;
    const started: number[] = [];
    await forEachLimited([1, 2, 3, 4, 5, 6, 7], 3, async n => {
      started.push(n);
      most = Math.max(most, ++running);
      await tick();
      running--;
    });
    expect(started).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(most).toBe(3);
  });

  it("frees a slot when fn's promise resolves, though the item's work goes on", async () => {
    const finish: Array<() => void> = [];
    const started: number[] = [];
    // Each fn resolves at once and leaves its work running: the next item must not wait for the work.
    await forEachLimited([1, 2, 3], 1, async n => {
      started.push(n);
      void new Promise<void>(resolve => finish.push(resolve));
    });
    expect(started).toEqual([1, 2, 3]);
    finish.forEach(f => f());
  });

  it('takes no new item once the signal aborts, and runs at least one at a time', async () => {
    const abort = new AbortController();
    const started: number[] = [];
    await forEachLimited(
      [1, 2, 3, 4],
      0,
      async n => {
        started.push(n);
        if (n === 2) abort.abort();
      },
      abort.signal,
    );
    expect(started).toEqual([1, 2]);
  });

  it('rejects with the first failure', async () => {
    await expect(
      forEachLimited([1, 2], 2, async n => {
        if (n === 2) throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
  });
});

describe('KeyedLock', () => {
  it('runs work for one key one at a time, and other keys in parallel', async () => {
    const lock = new KeyedLock();
    const events: string[] = [];
    const job = (key: string, id: string, ms: number) =>
      lock.run(key, async () => {
        events.push(`start ${id}`);
        await new Promise(r => setTimeout(r, ms));
        events.push(`end ${id}`);
      });
    await Promise.all([
      job('r', 'a', 20),
      job('r', 'b', 1),
      job('other', 'c', 1),
    ]);
    expect(events.indexOf('end a')).toBeLessThan(events.indexOf('start b'));
    expect(events.indexOf('end c')).toBeLessThan(events.indexOf('end a'));
  });

  it('keeps going after a failure', async () => {
    const lock = new KeyedLock();
    await expect(
      lock.run('r', async () => Promise.reject(new Error('boom'))),
    ).rejects.toThrow('boom');
    await expect(lock.run('r', async () => 42)).resolves.toBe(42);
  });

  it('says a key is busy while its work runs or waits, and forgets the key after', async () => {
    const lock = new KeyedLock();
    let release!: () => void;
    const gate = new Promise<void>(resolve => (release = resolve));
    const first = lock.run('r', () => gate);
    const second = lock.run('r', async () => lock.busy('r'));
    expect(lock.busy('r')).toBe(true);
    expect(lock.busy('other')).toBe(false);
    release();
    await first;
    // The second still holds the key while it runs.
    await expect(second).resolves.toBe(true);
    expect(lock.busy('r')).toBe(false);
  });
});

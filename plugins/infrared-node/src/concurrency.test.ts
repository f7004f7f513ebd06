import { KeyedLock } from './concurrency';

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

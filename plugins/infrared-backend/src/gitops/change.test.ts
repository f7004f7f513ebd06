import { execFileSync } from 'node:child_process';
import { branchForKey, gitBlobSha, KeyedMutex, validateChange } from './change';

describe('branchForKey', () => {
  it('keeps a simple key readable', () => {
    expect(branchForKey('register-edge-1')).toBe('infrared/register-edge-1');
  });

  it('adds a hash when characters were dropped, so keys never share a branch', () => {
    const a = branchForKey('register/edge-1');
    const b = branchForKey('register-edge/1');
    expect(a).toMatch(/^infrared\/register-edge-1-[0-9a-f]{8}$/);
    expect(a).not.toBe(b);
    expect(branchForKey('x'.repeat(200)).length).toBeLessThan(90);
  });

  it('refuses a key without letters or digits', () => {
    expect(() => branchForKey('//')).toThrow(/no letters or digits/);
  });
});

describe('gitBlobSha', () => {
  it('matches git hash-object', () => {
    const content = 'héllo\nworld\n';
    const expected = execFileSync('git', ['hash-object', '--stdin'], {
      input: content,
    })
      .toString()
      .trim();
    expect(gitBlobSha(content)).toBe(expected);
  });
});

describe('validateChange', () => {
  const base = { key: 'k', title: 't', body: '' };
  it.each(['/abs', 'a/../b', 'a//b', '.git/config', 'a/./b', ''])(
    'refuses path %j',
    path => {
      expect(() => validateChange({ ...base, files: { [path]: 'x' } })).toThrow(
        /invalid path/,
      );
    },
  );

  it.each([
    ['a key with a newline', { key: 'a\nb' }],
    ['a title with a newline', { title: 'one\ntwo' }],
    ['an empty title', { title: ' ' }],
  ])('refuses %s', (_, override) => {
    expect(() => validateChange({ ...base, files: {}, ...override })).toThrow(
      /one non-empty line/,
    );
  });

  it('refuses a path both written and deleted', () => {
    expect(() =>
      validateChange({ ...base, files: { a: 'x' }, deletions: ['a'] }),
    ).toThrow(/both written and deleted/);
  });
});

describe('KeyedMutex', () => {
  it('runs work for one name one at a time, and other names in parallel', async () => {
    const mutex = new KeyedMutex();
    const events: string[] = [];
    const job = (name: string, id: string, ms: number) =>
      mutex.run(name, async () => {
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
    const mutex = new KeyedMutex();
    await expect(
      mutex.run('r', async () => Promise.reject(new Error('boom'))),
    ).rejects.toThrow('boom');
    await expect(mutex.run('r', async () => 42)).resolves.toBe(42);
  });
});

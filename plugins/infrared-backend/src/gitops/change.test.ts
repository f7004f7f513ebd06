import { execFileSync } from 'node:child_process';
import { branchForKey, gitBlobSha, validateChange } from './change';

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

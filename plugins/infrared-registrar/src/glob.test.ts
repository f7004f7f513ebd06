import { globError, pathMatch } from './glob';

describe('pathMatch (Go path.Match)', () => {
  it.each([
    ['k3k-*-kubeconfig', 'k3k-sandbox-kubeconfig', true],
    ['k3k-*-kubeconfig', 'k3k--kubeconfig', true],
    ['k3k-*-kubeconfig', 'k3k-sandbox-kubeconfig-x', false],
    ['vc-*', 'vc-config-abc', true],
    ['vc-*', 'vc-', true],
    ['vc-*', 'xvc-a', false],
    ['*-kubeconfig', 'prod-user-kubeconfig', true],
    ['*-kubeconfig', 'kubeconfig', false],
    ['*-admin-kubeconfig', 'k-admin-kubeconfig', true],
    ['*-kubeconfig-user', 'aks-kubeconfig-user', true],
    ['a*b*c', 'abc', true],
    ['a*b*c', 'axxbyyc', true],
    ['a*b*c', 'axxbyy', false],
    ['*', 'a/b', false],
    ['a*', 'ab/c', false],
    ['a?c', 'abc', true],
    ['a?c', 'a/c', false],
    ['[a-c]x', 'bx', true],
    ['[a-c]x', 'dx', false],
    ['[^a-c]x', 'dx', true],
    ['[^a-c]x', 'ax', false],
    ['[!a]x', '!x', true],
    ['\\*x', '*x', true],
    ['\\*x', 'ax', false],
    ['{a,b}', 'a', false],
    ['{a,b}', '{a,b}', true],
    ['**', 'abc', true],
    ['', '', true],
    ['', 'a', false],
  ])('%s matches %s: %s', (pattern, name, want) => {
    expect(pathMatch(pattern, name)).toBe(want);
  });

  it.each(['[', 'a[', '[a-', '[]', 'x\\', '[a-]', 'k3k-*[', '[-a]'])(
    'rejects the malformed pattern %s, even when the name fails first',
    pattern => {
      expect(globError(pattern)).toMatch(/syntax error in pattern/);
    },
  );

  it('accepts the presets', () => {
    for (const p of [
      'k3k-*-kubeconfig',
      'vc-*',
      '*-admin-kubeconfig',
      '*-kubeconfig',
      '*-user-kubeconfig',
      '*-kubeconfig-user',
    ]) {
      expect(globError(p)).toBeUndefined();
    }
  });
});

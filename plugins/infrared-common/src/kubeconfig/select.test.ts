import { inspectKubeconfig } from './inspect';
import { kubeconfigYaml } from './testing';

const cluster = (name: string, n: number) => ({
  name,
  cluster: { server: `https://203.0.113.${n}:6443` },
});
const user = (name: string) => ({ name, user: { token: `token-of-${name}` } });
const context = (name: string, c: string, u: string) => ({
  name,
  context: { cluster: c, user: u },
});

const twoOfEach = {
  clusters: [cluster('a', 1), cluster('b', 2)],
  users: [user('ua'), user('ub')],
};

describe('inspectKubeconfig: choosing the cluster and user', () => {
  it('takes the lone cluster and user when there are no contexts', () => {
    const r = inspectKubeconfig(
      kubeconfigYaml({ clusters: [cluster('a', 1)], users: [user('ua')] }),
    );
    expect(r).toMatchObject({
      ok: true,
      context: undefined,
      clusterName: 'a',
      userName: 'ua',
      server: 'https://203.0.113.1:6443',
    });
  });

  it('follows current-context among several, never pairing one cluster with another user', () => {
    const r = inspectKubeconfig(
      kubeconfigYaml({
        ...twoOfEach,
        contexts: [context('ca', 'a', 'ua'), context('cb', 'b', 'ub')],
        currentContext: 'cb',
      }),
    );
    expect(r).toMatchObject({
      ok: true,
      context: 'cb',
      clusterName: 'b',
      server: 'https://203.0.113.2:6443',
    });
    expect(r.ok && r.argoConfig.bearerToken).toBe('token-of-ub');
  });

  it('uses the only context when current-context is not set', () => {
    const r = inspectKubeconfig(
      kubeconfigYaml({ ...twoOfEach, contexts: [context('only', 'b', 'ua')] }),
    );
    expect(r).toMatchObject({
      ok: true,
      context: 'only',
      clusterName: 'b',
      userName: 'ua',
    });
  });

  it.each([
    [
      'no current context and more than one context',
      {
        ...twoOfEach,
        contexts: [context('ca', 'a', 'ua'), context('cb', 'b', 'ub')],
      },
      'kubeconfig.current-context',
      /no current context and more than one context \("ca", "cb"\)/,
    ],
    [
      'several clusters and no context at all',
      twoOfEach,
      'kubeconfig.current-context',
      /2 clusters and 2 users but no context/,
    ],
    [
      'current-context naming no context',
      {
        ...twoOfEach,
        contexts: [context('ca', 'a', 'ua')],
        currentContext: 'gone',
      },
      'kubeconfig.current-context',
      /current-context "gone" names no entry in contexts; contexts are "ca"/,
    ],
    [
      'a context naming a missing cluster',
      {
        ...twoOfEach,
        contexts: [context('x', 'zz', 'ua')],
        currentContext: 'x',
      },
      'kubeconfig.contexts[0].context.cluster',
      /context "x" names cluster "zz", which is not in clusters/,
    ],
    [
      'a context naming a missing user',
      {
        ...twoOfEach,
        contexts: [context('ca', 'a', 'ua'), context('x', 'a', 'nobody')],
        currentContext: 'x',
      },
      'kubeconfig.contexts[1].context.user',
      /names user "nobody", which is not in users/,
    ],
    [
      'no clusters',
      { users: [user('ua')] },
      'kubeconfig.clusters',
      /no clusters/,
    ],
    [
      'no users',
      { clusters: [cluster('a', 1)] },
      'kubeconfig.users',
      /no users/,
    ],
    [
      'clusters not a list',
      { extra: { clusters: { a: 1 } }, users: [user('ua')] },
      'kubeconfig.clusters',
      /must be a list/,
    ],
  ])('refuses %s', (_case, config, field, message) => {
    const r = inspectKubeconfig(kubeconfigYaml(config as any));
    expect(r.ok).toBe(false);
    expect(!r.ok && r.errors).toEqual([
      { field, message: expect.stringMatching(message) },
    ]);
  });

  it.each([
    ['not YAML', 'clusters: [a\n  b: : c', /^kubeconfig is not valid YAML: /],
    ['empty', '   \n', /^kubeconfig is empty$/],
    ['a list', '- a\n- b\n', /must be a YAML mapping .*not a list/],
    ['a plain string', 'hello', /must be a YAML mapping .*not a string/],
  ])('refuses text that is %s', (_case, text, message) => {
    const r = inspectKubeconfig(text);
    expect(!r.ok && r.errors).toEqual([
      { field: 'kubeconfig', message: expect.stringMatching(message) },
    ]);
  });

  it("names fields with the caller's prefix", () => {
    const r = inspectKubeconfig('- x', { field: 'secret.data.kubeconfig' });
    expect(!r.ok && r.errors[0].field).toBe('secret.data.kubeconfig');
  });

  it('reads JSON kubeconfigs too', () => {
    const json = JSON.stringify({
      clusters: [cluster('a', 1)],
      users: [user('ua')],
    });
    expect(inspectKubeconfig(json).ok).toBe(true);
  });
});

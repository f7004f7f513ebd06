import {
  condition,
  discovered,
  management,
  registered,
  unreachable,
} from '../__testUtils__/fixtures';
import { isInProgress, stuckCondition } from './clusterStatus';
import { filterClusters } from './filterClusters';
import { changeSummary } from './changeSummary';
import { gitopsLink } from './gitopsLink';
import { loadErrorAdvice } from './loadErrorAdvice';
import {
  checkRegisterForm,
  EMPTY_FORM,
  formFieldOf,
  requestBody,
} from './registerForm';
import { relativeTime } from './relativeTime';
import { sortClusters } from './sortClusters';

describe('cluster status', () => {
  it('is in progress until Connected and Registered are True', () => {
    expect(isInProgress(registered('a'))).toBe(false);
    expect(isInProgress(unreachable)).toBe(true);
    expect(isInProgress({ ...registered('b'), conditions: [] })).toBe(true);
  });

  it('does not wait on a discovered cluster that carries no conditions', () => {
    expect(isInProgress({ ...discovered, conditions: [] })).toBe(false);
    expect(
      isInProgress({
        ...discovered,
        conditions: [condition('Connected', 'False', 'Unreachable')],
      }),
    ).toBe(true);
  });

  it('names the first False condition as where it is stuck', () => {
    expect(stuckCondition(unreachable)?.reason).toBe('Unreachable');
    expect(stuckCondition(registered('a'))).toBeUndefined();
  });
});

describe('filterClusters and sortClusters', () => {
  const all = [management, registered('edge-1'), unreachable, discovered];

  it('matches every word against what the table shows', () => {
    expect(filterClusters(all, 'TEAM-A', 'all').map(c => c.name)).toEqual([
      'child-a',
    ]);
    expect(
      filterClusters(all, 'unreachable edge', 'all').map(c => c.name),
    ).toEqual(['edge-down']);
    expect(filterClusters(all, 'edge', 'connected').map(c => c.name)).toEqual([
      'edge-1',
    ]);
  });

  it('sorts versions numerically and missing values last', () => {
    const a = registered('a', { kubernetesVersion: 'v1.9.0' });
    const b = registered('b', { kubernetesVersion: 'v1.31.2' });
    const c = registered('c', { kubernetesVersion: undefined });
    expect(
      sortClusters([b, c, a], 'kubernetesVersion', 'asc').map(x => x.name),
    ).toEqual(['a', 'b', 'c']);
    expect(
      sortClusters([b, c, a], 'kubernetesVersion', 'desc').map(x => x.name),
    ).toEqual(['b', 'a', 'c']);
  });
});

describe('gitopsLink', () => {
  it('links web URLs only, and shows a local repository URL as a title', () => {
    expect(gitopsLink(registered('a'))).toEqual({
      label: 'registry/clusters/infrared-mgmt/components/cluster-a.yaml',
      href: 'https://github.com/acme/gitops/pull/7',
      title: 'Open pull request #7',
    });
    const local = gitopsLink({
      gitopsPath: 'registry/x.yaml',
      pullRequest: {
        url: 'file:///data/gitops#abc',
        commit: 'abcdef0123456789',
      },
    });
    expect(local?.href).toBeUndefined();
    expect(local?.title).toBe('commit abcdef012345: file:///data/gitops#abc');
    expect(gitopsLink({})).toBeUndefined();
  });
});

describe('changeSummary', () => {
  it('gives the pull request, the short commit and the branch, and links only a web URL', () => {
    expect(
      changeSummary({
        url: 'https://github.com/acme/gitops/pull/7',
        number: 7,
        commit: 'c0ffee0123456789',
        merged: true,
        branch: 'main',
      }),
    ).toEqual({
      pullRequest: {
        label: 'pull request #7',
        href: 'https://github.com/acme/gitops/pull/7',
      },
      commit: { short: 'c0ffee0', full: 'c0ffee0123456789' },
      branch: 'main',
      merged: true,
    });
    expect(
      changeSummary({ url: 'file:///data/gitops.git#abcdef0123', number: 2 }),
    ).toEqual({
      pullRequest: { label: 'pull request #2', href: undefined },
      commit: { short: 'abcdef0', full: 'abcdef0123' },
      // issue 23.4: where the local repository lives and how to read the change there
      local: {
        path: '/data/gitops.git',
        command: 'git -C /data/gitops.git show abcdef0123',
      },
    });
    expect(changeSummary({ url: 'file:///data/gitops.git' })).toBeUndefined();
    expect(changeSummary({ url: 'https://git.example/c/1' })).toEqual({
      href: 'https://git.example/c/1',
    });
    expect(changeSummary(undefined)).toBeUndefined();
  });
});

describe('register form', () => {
  it('leaves empty optional fields out of the body, and the server out for inCluster', () => {
    expect(
      requestBody({
        ...EMPTY_FORM,
        name: 'a',
        kubeconfig: 'k',
        region: ' ',
        server: 'https://x',
      }),
    ).toEqual({ name: 'a', kubeconfig: 'k', server: 'https://x' });
    expect(
      requestBody({
        ...EMPTY_FORM,
        name: 'a',
        connection: 'inCluster',
        server: 'https://x',
      }),
    ).toEqual({ name: 'a', inCluster: true });
  });

  it('maps API error fields onto form fields', () => {
    expect(formFieldOf('kubeconfig.users[0].user.exec')).toBe('kubeconfig');
    expect(formFieldOf('inCluster')).toBe('kubeconfig');
    expect(formFieldOf('name')).toBe('name');
    expect(formFieldOf('body')).toBe('form');
  });

  it('refuses a server override at the in-cluster address, as the API does', () => {
    const check = checkRegisterForm({
      ...EMPTY_FORM,
      name: 'a',
      kubeconfig: 'x',
      server: 'https://kubernetes.default.svc',
    });
    expect(check.request).toBeUndefined();
    expect(check.errors.server?.[0].message).toMatch(/in-cluster address/);
  });
});

describe('loadErrorAdvice and relativeTime', () => {
  it('says what to do for each kind of failure', () => {
    expect(
      loadErrorAdvice(Object.assign(new Error('x'), { status: 403 })),
    ).toMatch(/infrared\.cluster\.read/);
    expect(loadErrorAdvice(new TypeError('Failed to fetch'))).toMatch(
      /backend is running/,
    );
  });

  it('reads RFC 3339 times relative to now', () => {
    const now = Date.parse('2026-01-01T12:00:00Z');
    expect(relativeTime('2026-01-01T11:55:00Z', now)).toBe('5 minutes ago');
    expect(relativeTime('2025-12-30T12:00:00Z', now)).toBe('2 days ago');
    expect(relativeTime('2026-01-01T12:00:05Z', now)).toBe('just now');
    expect(relativeTime(undefined, now)).toBe('');
    expect(relativeTime('garbage', now)).toBe('');
  });
});

import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const env = {
  PATH: process.env.PATH,
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 'Someone Else',
  GIT_AUTHOR_EMAIL: 'someone@example.com',
  GIT_COMMITTER_NAME: 'Someone Else',
  GIT_COMMITTER_EMAIL: 'someone@example.com',
};

/** Runs git as a test (or "another engineer") would, outside the publisher. */
export function git(args: string[], cwd?: string, input?: string): string {
  return execFileSync('git', args, {
    cwd,
    env,
    input,
    encoding: 'utf8',
  }).trim();
}

/** Reads a bare repository the way a reviewer would. */
export function bare(path: string) {
  const run = (...args: string[]) => git([`--git-dir=${path}`, ...args]);
  return {
    run,
    head: (branch = 'main') => run('rev-parse', `refs/heads/${branch}`),
    show: (path2: string, rev = 'main') => run('show', `${rev}:${path2}`),
    parents: (rev = 'main') =>
      run('rev-list', '--parents', '-n', '1', rev).split(' ').slice(1),
    count: (rev = 'main') => Number(run('rev-list', '--count', rev)),
    merges: (rev = 'main') =>
      Number(run('rev-list', '--count', '--merges', rev)),
    branches: () =>
      run('for-each-ref', '--format=%(refname)', 'refs/heads')
        .split('\n')
        .filter(Boolean),
    exists: (path2: string, rev = 'main') =>
      run('ls-tree', '--name-only', rev, '--', path2) !== '',
  };
}

/** Pushes a commit to `main` from a separate clone, like another writer of the gitops repository. */
export function pushFromClone(
  barePath: string,
  files: Record<string, string>,
  message: string,
) {
  const dir = mkdtempSync(join(tmpdir(), 'infrared-clone-'));
  try {
    git(['clone', '-q', barePath, dir]);
    for (const [path, content] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), content);
    }
    git(['-C', dir, 'add', '-A']);
    git(['-C', dir, 'commit', '-q', '-m', message]);
    git(['-C', dir, 'push', '-q', 'origin', 'HEAD:main']);
    return git(['-C', dir, 'rev-parse', 'HEAD']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function tempDir(): { path: string; cleanup: () => void } {
  const path = mkdtempSync(join(tmpdir(), 'infrared-gitops-test-'));
  return {
    path,
    cleanup: () => rmSync(path, { recursive: true, force: true }),
  };
}

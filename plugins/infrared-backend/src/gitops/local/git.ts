import { scrubSecrets } from '@infrared-clusters/plugin-infrared-common';
import { execFile, spawn } from 'node:child_process';
import { RefTransactions } from './refTransactions';

export interface GitIdentity {
  name: string;
  email: string;
}

export class GitCommandError extends Error {
  readonly stderr: string;

  constructor(
    readonly args: string[],
    readonly code: number | string | undefined,
    stderr: string,
  ) {
    // git prints remote URLs (with a token in them) and credential helpers' errors
    super(`git ${args[0]} failed (${code}): ${scrubSecrets(stderr.trim())}`);
    this.stderr = scrubSecrets(stderr);
    this.name = 'GitCommandError';
  }
}

/**
 * Runs git without a shell and without the user's or the system's git configuration, so a developer's
 * signing, hooks or aliases never change what the publisher writes.
 */
export class Git {
  private readonly env: NodeJS.ProcessEnv;
  private readonly refs = new RefTransactions(() =>
    spawn('git', this.args(['update-ref', '--stdin']), {
      env: this.env,
      stdio: 'pipe',
    }),
  );

  constructor(
    private readonly gitDir: string,
    identity: GitIdentity,
    extraEnv: NodeJS.ProcessEnv = {},
  ) {
    this.env = {
      PATH: process.env.PATH,
      LANG: 'C',
      LC_ALL: 'C',
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_TERMINAL_PROMPT: '0',
      GIT_LITERAL_PATHSPECS: '1',
      GIT_AUTHOR_NAME: identity.name,
      GIT_AUTHOR_EMAIL: identity.email,
      GIT_COMMITTER_NAME: identity.name,
      GIT_COMMITTER_EMAIL: identity.email,
      ...extraEnv,
    };
  }

  /** git's arguments for `args` on this repository, without the user's signing or hooks. */
  private args(args: string[]): string[] {
    return [
      '-c',
      'commit.gpgsign=false',
      '-c',
      'core.hooksPath=/dev/null',
      `--git-dir=${this.gitDir}`,
      ...args,
    ];
  }

  /** Runs `git --git-dir=<repo> <args>` and resolves with stdout. */
  async run(
    args: string[],
    options: { input?: string; env?: NodeJS.ProcessEnv } = {},
  ): Promise<string> {
    return (await this.runRaw(args, options)).toString('utf8');
  }

  /** Runs git as `run` does and resolves with stdout as bytes: every git process starts here. */
  runRaw(
    args: string[],
    options: { input?: string; env?: NodeJS.ProcessEnv } = {},
  ): Promise<Buffer> {
    return new Promise((resolve, reject) => {
      const child = execFile(
        'git',
        this.args(args),
        {
          env: { ...this.env, ...options.env },
          maxBuffer: 256 * 1024 * 1024,
          encoding: 'buffer',
        },
        (error, stdout, stderr) => {
          if (error) {
            reject(new GitCommandError(args, error.code, stderr.toString()));
          } else {
            resolve(stdout);
          }
        },
      );
      // git may exit without reading stdin; the resulting EPIPE is not an error of the command.
      child.stdin?.on('error', () => {});
      child.stdin?.end(options.input ?? '');
    });
  }

  /**
   * The objects `names` name (any revision syntax, e.g. `<commit>:<path>`) in one `git cat-file --batch`,
   * each with its id and type, or undefined when it does not exist.
   */
  async readObjects(
    names: string[],
  ): Promise<Array<{ id: string; type: string; body: Buffer } | undefined>> {
    const out = await this.runRaw(['cat-file', '--batch'], {
      input: `${names.join('\n')}\n`,
    });
    const objects = [];
    let at = 0;
    for (let i = 0; i < names.length; i++) {
      const end = out.indexOf(0x0a, at);
      const [id, type, size] = out.toString('utf8', at, end).split(' ');
      if (!/^[0-9a-f]{40}$/.test(id) || size === undefined) {
        objects.push(undefined); // "<name> missing" or "<name> ambiguous"
        at = end + 1;
        continue;
      }
      const body = out.subarray(end + 1, end + 1 + Number(size));
      objects.push({ id, type, body });
      at = end + 2 + Number(size);
    }
    return objects;
  }

  /** The commit a ref points at, or undefined when the ref does not exist. */
  async resolve(ref: string): Promise<string | undefined> {
    try {
      const out = await this.run([
        'rev-parse',
        '--verify',
        '-q',
        `${ref}^{commit}`,
      ]);
      return out.trim();
    } catch (e) {
      if (e instanceof GitCommandError && e.code === 1) {
        return undefined;
      }
      throw e;
    }
  }

  /**
   * Applies ref updates (`update <ref> <new> [<old>]`, `create <ref> <new>`, `delete <ref>`) all or none.
   * Resolves false when a ref was not at the expected value (another writer got there first, the check a
   * non-fast-forward push makes) or was locked by that writer.
   */
  async updateRefs(commands: string[]): Promise<boolean> {
    const outcome = await this.refs.apply(commands);
    if (outcome.committed) return true;
    const stderr = outcome.stderr ?? '';
    if (/cannot lock ref|Unable to create .*\.lock/.test(stderr)) return false;
    throw new GitCommandError(
      ['update-ref', '--stdin'],
      outcome.code ?? undefined,
      stderr,
    );
  }

  /** Ends the kept `git update-ref --stdin` once its transactions are done. */
  close(): Promise<void> {
    return this.refs.close();
  }

  async commitTree(tree: string, parents: string[], message: string) {
    const parentArgs = parents.flatMap(p => ['-p', p]);
    const args = ['commit-tree', tree, ...parentArgs, '-F', '-'];
    return (await this.run(args, { input: message })).trim();
  }
}

import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import type { GitopsChange } from '@infrared-clusters/plugin-infrared-node';
import { tempDir } from '../__testUtils__/gitRepos';
import { LocalGitPublisher } from './LocalGitPublisher';

// Real git processes; generous for a busy CI machine.
jest.setTimeout(60_000);

const register = (name: string): GitopsChange => ({
  key: `register-${name}`,
  title: `Register ${name}`,
  body: `Adds ${name}`,
  files: { [`registry/clusters/${name}/components/README.md`]: `# ${name}\n` },
});

/** The running `git update-ref --stdin` processes on the repository at `path`. */
function keptGitProcesses(path: string): string[] {
  return execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' })
    .split('\n')
    .filter(args => args.includes(`--git-dir=${path} update-ref --stdin`));
}

describe('LocalGitPublisher.close (the backend stopping)', () => {
  let dir: ReturnType<typeof tempDir>;
  beforeEach(() => {
    dir = tempDir();
  });
  afterEach(() => dir.cleanup());

  it('ends the kept git process at once, not a second later', async () => {
    const path = join(dir.path, 'gitops.git');
    const local = new LocalGitPublisher({ path });
    await local.publish(register('a'));
    expect(keptGitProcesses(path)).toHaveLength(1);
    await local.close();
    expect(keptGitProcesses(path)).toEqual([]);
  });

  it('lets the publish under way finish first, and refuses the next one', async () => {
    const path = join(dir.path, 'gitops.git');
    const local = new LocalGitPublisher({ path });
    const order: string[] = [];
    const publishing = local
      .publish(register('b'))
      .then(result => order.push(`published ${result.state}`));
    await local.close().then(() => order.push('closed'));
    await publishing;
    expect(order).toEqual(['published merged', 'closed']);
    await expect(local.publish(register('c'))).rejects.toThrow(
      /publisher is closed/,
    );
    const log = execFileSync('git', [`--git-dir=${path}`, 'log', '--oneline'], {
      encoding: 'utf8',
    });
    expect(log).toMatch(/register-b|Register b/);
    expect(log).not.toMatch(/Register c/);
  });
});

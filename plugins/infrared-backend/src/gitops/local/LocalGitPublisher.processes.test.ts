import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { GitopsPublishResult } from '@infrared-clusters/plugin-infrared-node';
import { tempDir } from '../__testUtils__/gitRepos';
import { additionsByPath, mergedChanges } from '../__testUtils__/mergeHistory';
import { LocalGitPublisher } from './LocalGitPublisher';

// Two Node processes, each loading TypeScript and running git; generous for a busy CI machine.
jest.setTimeout(60_000);

const run = promisify(execFile);
const RUNNER = join(__dirname, '..', '__testUtils__', 'publishInProcess.js');

/** Starts a process that publishes the names' registrations at `startAt`; resolves with its results. */
async function otherProcess(
  path: string,
  startAt: number,
  names: string[],
): Promise<Array<GitopsPublishResult | { error: string }>> {
  const { stdout } = await run(
    process.execPath,
    [RUNNER, path, String(startAt), ...names],
    { timeout: 50_000, maxBuffer: 16 * 1024 * 1024 },
  );
  return JSON.parse(stdout);
}

describe('LocalGitPublisher in two processes at once', () => {
  let dir: ReturnType<typeof tempDir>;
  beforeEach(() => {
    dir = tempDir();
  });
  afterEach(() => dir.cleanup());

  it('records one pull request per key when both publish the same keys, each file landing once', async () => {
    const path = join(dir.path, 'gitops.git');
    const local = new LocalGitPublisher({ path });
    await local.listPullRequests(); // the repository exists before the race
    const names = Array.from({ length: 12 }, (_, i) => `edge-${i}`);
    // both start together once loaded; one goes through the names backwards, to meet the other midway
    const startAt = Date.now() + 4000;
    const [one, two] = await Promise.all([
      otherProcess(path, startAt, names),
      otherProcess(path, startAt, [...names].reverse()),
    ]);

    expect([...one, ...two].filter(r => 'error' in r)).toEqual([]);
    const pulls = await local.listPullRequests();
    expect(pulls.map(p => p.key).sort()).toEqual(
      names.map(n => `cluster-${n}`).sort(),
    );
    expect(pulls.filter(p => !p.merged)).toEqual([]);
    const added = additionsByPath(mergedChanges(path));
    for (const name of names) {
      expect(added.get(`registry/clusters/${name}/components/README.md`)).toBe(
        1,
      );
    }
    expect(mergedChanges(path)).toHaveLength(names.length);
  });
});

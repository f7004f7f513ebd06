import { useFakeGithub } from '../__testUtils__/githubHarness';
import {
  appOfApps,
  clusterNames,
  githubStack,
  landedPaths,
  registerAtOnce,
} from '../__testUtils__/githubScale';

/**
 * The stack the backend builds for GitHub (createGitopsPublisher + BatchingPublisher, default
 * maxFilesPerChange 1000) against the fake GitHub: what many registrations at once cost in requests.
 */
describe('BatchingPublisher on GitHub: requests grow with the changes, not the files', () => {
  const gh = useFakeGithub();
  // no fault injected: no retry plugin, no write pacing
  const stack = () =>
    githubStack({
      server: gh.server,
      logger: gh.logger,
      githubRetry: { enabled: false },
    });

  it("publishes 300 registrations at once (1,200 files: 4 each) as 2 pull requests, each cluster's files merged once", async () => {
    const names = clusterNames(300);
    const results = await registerAtOnce(stack(), names);

    expect(results.filter(r => r.status === 'rejected')).toEqual([]);
    const repo = gh.server.repo;
    expect(repo.pulls).toHaveLength(2);
    expect(repo.pulls.every(p => p.merged)).toBe(true);
    const landed = landedPaths(repo);
    expect(landed.size).toBe(1200);
    expect([...landed.values()].filter(prs => prs.length !== 1)).toEqual([]);
    for (const name of names) {
      expect(repo.file(appOfApps(name))).toContain(`registry-${name}`);
    }
    // a handful of requests a pull request (and one description of the repository), not one a file
    expect(gh.server.requests.length).toBeLessThanOrEqual(1 + 7 * 2);
    expect(gh.server.requests.every(r => r.status < 400)).toBe(true);
  });

  it('spends as many requests on a change of 300 files as on a change of 4', async () => {
    await registerAtOnce(stack(), ['solo']);
    const alone = gh.server.requests.length;
    await registerAtOnce(stack(), clusterNames(75));
    const batched = gh.server.requests.length - alone;

    expect(gh.server.repo.pulls.map(p => p.title)).toEqual([
      'Register cluster solo',
      'Infrared: 75 changes (cluster-edge-0, cluster-edge-1, cluster-edge-10 and 72 more)',
    ]);
    expect(batched).toBe(alone);
  });

  it('publishes nothing more when the same registrations come again (a restart before the statuses were written)', async () => {
    const names = clusterNames(20);
    await registerAtOnce(stack(), names);
    const before = gh.server.requests.length;
    const again = await registerAtOnce(stack(), names);

    expect(again.every(r => r.status === 'fulfilled' && r.value.merged)).toBe(
      true,
    );
    expect(gh.server.repo.pulls).toHaveLength(1);
    const writes = gh.server.requests
      .slice(before)
      .filter(r => r.method !== 'GET')
      .map(r => r.operationId);
    // the tree equal to the base's says the files are there: no commit, no branch, no pull request
    expect(writes).toEqual(['git/create-tree', 'git/delete-ref']);
  });
});

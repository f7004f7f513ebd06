import { ConfigReader } from '@backstage/config';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { captureLogger } from './__testUtils__/captureLogger';
import { FakeGithubServer } from './__testUtils__/fakeGithubServer';
import { registration, REPO_URL, TOKEN } from './__testUtils__/githubHarness';
import { createGitopsPublisher } from './createGitopsPublisher';

const make = (
  gitops?: object,
  integrations?: object,
  logger = captureLogger(),
) =>
  createGitopsPublisher({
    config: new ConfigReader({ infrared: gitops && { gitops }, integrations }),
    logger,
    rootDir: '/srv/portal',
    // No retries nor write pacing (a second between writes): no fault is injected here.
    githubRetry: { enabled: false },
  });

describe('createGitopsPublisher', () => {
  it('defaults to the local repository under the root directory', async () => {
    await expect(make().describe()).resolves.toEqual({
      type: 'local',
      repoUrl: 'file:///srv/portal/.data/gitops.git',
      defaultBranch: 'main',
    });
    await expect(
      make({ type: 'local', path: '/var/gitops.git' }).describe(),
    ).resolves.toMatchObject({
      repoUrl: 'file:///var/gitops.git',
    });
  });

  it('writes infrared.gitops.argocdRepoUrl as the URL Argo CD clones, for either type', async () => {
    await expect(
      make({
        type: 'local',
        path: '/var/gitops.git',
        argocdRepoUrl: 'git://127.0.0.1:9418/gitops.git',
      }).describe(),
    ).resolves.toEqual({
      type: 'local',
      repoUrl: 'git://127.0.0.1:9418/gitops.git',
      defaultBranch: 'main',
    });
    const github = make(
      {
        type: 'github',
        repoUrl: 'https://ghe.example.com/platform/gitops',
        branch: 'trunk',
        argocdRepoUrl: 'git@ghe.example.com:platform/gitops.git',
      },
      { github: [{ host: 'ghe.example.com', token: 't0ken' }] },
    );
    await expect(github.describe()).resolves.toMatchObject({
      repoUrl: 'git@ghe.example.com:platform/gitops.git',
      // browsing still goes to the web UI of repoUrl
      fileUrlPrefix: 'https://ghe.example.com/platform/gitops/blob/trunk/',
    });
    expect(() =>
      make({ type: 'local', argocdRepoUrl: '.data/gitops.git' }),
    ).toThrow(/argocdRepoUrl must be a URL Argo CD can clone/);
  });

  it('builds the GitHub publisher with its branch', async () => {
    const publisher = make(
      {
        type: 'github',
        repoUrl: 'https://ghe.example.com/platform/gitops',
        branch: 'trunk',
      },
      {
        github: [
          {
            host: 'ghe.example.com',
            apiBaseUrl: 'https://ghe.example.com/api/v3',
            token: 't0ken',
          },
        ],
      },
    );
    await expect(publisher.describe()).resolves.toEqual({
      type: 'github',
      repoUrl: 'https://ghe.example.com/platform/gitops',
      defaultBranch: 'trunk',
      fileUrlPrefix: 'https://ghe.example.com/platform/gitops/blob/trunk/',
    });
  });

  it('refuses unknown types and merge methods, naming the setting', () => {
    expect(() => make({ type: 'gitlab' })).toThrow(
      'infrared.gitops.type must be local or github, not "gitlab"',
    );
    expect(() =>
      make({
        type: 'github',
        repoUrl: 'https://github.com/a/b',
        mergeMethod: 'ff',
      }),
    ).toThrow(
      /infrared.gitops.mergeMethod must be one of merge, squash, rebase/,
    );
    expect(() => make({ type: 'github' })).toThrow(/repoUrl/);
  });

  it('turns auto-merge off for GitHub with autoMerge: false (the pull request waits for a human)', async () => {
    const server = new FakeGithubServer(TOKEN);
    await server.start();
    try {
      const github = [
        { host: 'github.test', apiBaseUrl: server.apiBaseUrl, token: TOKEN },
      ];
      const manual = make(
        { type: 'github', repoUrl: REPO_URL, autoMerge: false },
        { github },
      );
      await expect(manual.publish(registration)).resolves.toMatchObject({
        state: 'open',
        merged: false,
      });
      expect(server.count('pulls/merge')).toBe(0);

      const automatic = make({ type: 'github', repoUrl: REPO_URL }, { github });
      await expect(automatic.publish(registration)).resolves.toMatchObject({
        state: 'merged',
      });
      expect(server.count('pulls/merge')).toBe(1);
      expect(server.violations).toEqual([]);
    } finally {
      await server.stop();
    }
  });

  it('merges locally whatever autoMerge says, and warns that it does', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'infrared-automerge-'));
    try {
      const logger = captureLogger();
      const publisher = make(
        { type: 'local', path: join(dir, 'gitops.git'), autoMerge: false },
        undefined,
        logger,
      );
      expect(logger.text()).toContain(
        'warn infrared.gitops.autoMerge is false, but the local gitops repository has no one to review a pull request',
      );
      await expect(
        publisher.publish({
          key: 'k',
          title: 't',
          body: '',
          files: { f: 'x\n' },
        }),
      ).resolves.toMatchObject({ state: 'merged', merged: true });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('refuses an autoMerge that is not a boolean, naming the setting', () => {
    expect(() => make({ type: 'local', autoMerge: 'sometimes' })).toThrow(
      /infrared\.gitops\.autoMerge/,
    );
  });
});

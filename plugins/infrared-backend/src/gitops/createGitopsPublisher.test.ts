import { ConfigReader } from '@backstage/config';
import { captureLogger } from './__testUtils__/captureLogger';
import { createGitopsPublisher } from './createGitopsPublisher';

const make = (gitops?: object, integrations?: object) =>
  createGitopsPublisher({
    config: new ConfigReader({ infrared: gitops && { gitops }, integrations }),
    logger: captureLogger(),
    rootDir: '/srv/portal',
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
});

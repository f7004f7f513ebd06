import { ConfigReader } from '@backstage/config';
import { GithubClientFactory, parseGithubRepoUrl } from './client';

describe('parseGithubRepoUrl', () => {
  it.each([
    [
      'https://github.com/acme/gitops',
      { host: 'github.com', owner: 'acme', repo: 'gitops' },
    ],
    [
      'https://ghe.example.com/acme/gitops.git',
      { host: 'ghe.example.com', owner: 'acme', repo: 'gitops' },
    ],
  ])('%s', (url, expected) => {
    expect(parseGithubRepoUrl(url)).toEqual(expected);
  });

  it.each([
    'github.com/acme/gitops',
    'https://github.com/acme',
    'https://github.com/acme/gitops/tree/main',
  ])('refuses %s', url => {
    expect(() => parseGithubRepoUrl(url)).toThrow(/repoUrl/);
  });
});

describe('GithubClientFactory', () => {
  it('says when no credentials are configured for the host', async () => {
    const factory = new GithubClientFactory(new ConfigReader({}));
    await expect(
      factory.create('https://github.com/acme/gitops'),
    ).rejects.toThrow(
      'No GitHub credentials for https://github.com/acme/gitops: add a token or a GitHub App for github.com under integrations.github',
    );
  });

  it('says when no integration matches the host', () => {
    const factory = new GithubClientFactory(new ConfigReader({}));
    expect(() =>
      factory.apiBaseUrl('https://ghe.example.com/acme/gitops'),
    ).toThrow(
      'No integrations.github entry with an apiBaseUrl matches https://ghe.example.com/acme/gitops',
    );
  });
});

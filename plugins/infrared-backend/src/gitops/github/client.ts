import { LoggerService } from '@backstage/backend-plugin-api';
import { Config } from '@backstage/config';
import {
  DefaultGithubCredentialsProvider,
  GithubCredentialsProvider,
  ScmIntegrations,
} from '@backstage/integration';
import type { Octokit } from '@octokit/rest';
import { GitopsPublishError } from './errors';
import { createRetryingOctokit, RetryOptions } from './retry';

export interface GithubRepoRef {
  host: string;
  owner: string;
  repo: string;
}

/** `https://<host>/<owner>/<repo>[.git]` -> its parts. */
export function parseGithubRepoUrl(repoUrl: string): GithubRepoRef {
  let url: URL;
  try {
    url = new URL(repoUrl);
  } catch {
    throw new GitopsPublishError(`gitops repoUrl "${repoUrl}" is not a URL`);
  }
  const [owner, repo, ...rest] = url.pathname
    .replace(/^\/+|\/+$/g, '')
    .split('/');
  if (!owner || !repo || rest.length) {
    throw new GitopsPublishError(
      `gitops repoUrl "${repoUrl}" must look like https://<host>/<owner>/<repo>`,
    );
  }
  return { host: url.host, owner, repo: repo.replace(/\.git$/, '') };
}

export interface GithubClient {
  octokit: Octokit;
  token: string;
  apiBaseUrl: string;
}

/**
 * Resolves credentials through Backstage's GitHub integrations (a GitHub App installation token or the
 * configured token) and builds an Octokit for the integration's API (GitHub Enterprise included).
 */
export class GithubClientFactory {
  private readonly integrations: ScmIntegrations;
  private readonly credentials: GithubCredentialsProvider;

  constructor(
    config: Config,
    private readonly options: {
      logger?: LoggerService;
      retry?: RetryOptions;
    } = {},
  ) {
    this.integrations = ScmIntegrations.fromConfig(config);
    this.credentials = DefaultGithubCredentialsProvider.fromIntegrations(
      this.integrations,
    );
  }

  /** The API base URL for a repository, without asking for credentials. */
  apiBaseUrl(repoUrl: string): string {
    const integration = this.integrations.github.byUrl(repoUrl);
    if (!integration?.config.apiBaseUrl) {
      throw new GitopsPublishError(
        `No integrations.github entry with an apiBaseUrl matches ${repoUrl}`,
      );
    }
    return integration.config.apiBaseUrl;
  }

  async create(repoUrl: string): Promise<GithubClient> {
    const apiBaseUrl = this.apiBaseUrl(repoUrl);
    const { token } = await this.credentials.getCredentials({ url: repoUrl });
    if (!token) {
      throw new GitopsPublishError(
        `No GitHub credentials for ${repoUrl}: add a token or a GitHub App for ${
          new URL(repoUrl).host
        } under integrations.github`,
      );
    }
    const octokit = createRetryingOctokit({
      token,
      baseUrl: apiBaseUrl,
      logger: this.options.logger,
      retry: this.options.retry,
    });
    return { octokit, token, apiBaseUrl };
  }
}

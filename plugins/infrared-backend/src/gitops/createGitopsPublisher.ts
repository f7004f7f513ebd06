import { LoggerService } from '@backstage/backend-plugin-api';
import { Config } from '@backstage/config';
import { isAbsolute, resolve } from 'node:path';
import { GithubPublisher } from './github/GithubPublisher';
import type { RetryOptions } from './github/retry';
import { LocalGitPublisher } from './local/LocalGitPublisher';
import type { GitopsPublisher } from '@infrared-clusters/plugin-infrared-node';

export const DEFAULT_LOCAL_GITOPS_PATH = '.data/gitops.git';

const MERGE_METHODS = ['merge', 'squash', 'rebase'] as const;

/**
 * The publisher `infrared.gitops` asks for: `type: local` (default; `path`, relative to `rootDir`) or
 * `type: github` (`repoUrl`, optional `branch`, `mergeMethod`, `autoMerge`; credentials from
 * `integrations.github`). `argocdRepoUrl`, for either, is the URL Argo CD clones (the Applications'
 * `source.repoURL`): default `file://<path>` for local, `repoUrl` for GitHub. `autoMerge` (default true) applies to GitHub only: the local publisher always
 * merges, there is no one to review its pull requests.
 */
export function createGitopsPublisher(options: {
  config: Config;
  logger: LoggerService;
  /** What a relative local `path` is resolved against: the repository root. */
  rootDir: string;
  /** The GitHub publisher's retries and pacing (tests turn them off). */
  githubRetry?: RetryOptions;
}): GitopsPublisher {
  const { config, logger, rootDir } = options;
  const gitops = config.getOptionalConfig('infrared.gitops');
  const type = gitops?.getOptionalString('type') ?? 'local';
  const autoMerge = gitops?.getOptionalBoolean('autoMerge') ?? true;
  const argocdRepoUrl = readArgocdRepoUrl(gitops);
  if (type === 'local') {
    const path = gitops?.getOptionalString('path') ?? DEFAULT_LOCAL_GITOPS_PATH;
    if (!autoMerge) {
      logger.warn(
        'infrared.gitops.autoMerge is false, but the local gitops repository has no one to review a pull request: it merges every change at once',
      );
    }
    return new LocalGitPublisher({
      path: isAbsolute(path) ? path : resolve(rootDir, path),
      argocdRepoUrl,
      logger,
    });
  }
  if (type === 'github') {
    const mergeMethod = gitops!.getOptionalString('mergeMethod') ?? 'merge';
    if (!(MERGE_METHODS as readonly string[]).includes(mergeMethod)) {
      throw new Error(
        `infrared.gitops.mergeMethod must be one of ${MERGE_METHODS.join(
          ', ',
        )}, not "${mergeMethod}"`,
      );
    }
    return new GithubPublisher({
      config,
      repoUrl: gitops!.getString('repoUrl'),
      argocdRepoUrl,
      branch: gitops!.getOptionalString('branch'),
      mergeMethod: mergeMethod as (typeof MERGE_METHODS)[number],
      autoMerge,
      logger,
      retry: options.githubRetry,
    });
  }
  throw new Error(
    `infrared.gitops.type must be local or github, not "${type}"`,
  );
}

/** `infrared.gitops.argocdRepoUrl`, checked: Argo CD must be able to parse it as a URL. */
function readArgocdRepoUrl(gitops: Config | undefined): string | undefined {
  const url = gitops?.getOptionalString('argocdRepoUrl');
  if (url === undefined) return undefined;
  // Argo CD also takes scp-like ssh addresses, git@host:owner/repo.git
  if (
    !/^[a-z][a-z0-9+.-]*:\/\/\S+$/i.test(url) &&
    !/^[\w.-]+@[\w.-]+:\S+$/.test(url)
  ) {
    throw new Error(
      `infrared.gitops.argocdRepoUrl must be a URL Argo CD can clone (https://, ssh://, git://, file:// or git@host:path), not "${url}"`,
    );
  }
  return url;
}

import { LoggerService } from '@backstage/backend-plugin-api';
import { Config } from '@backstage/config';
import { isAbsolute, resolve } from 'node:path';
import { GithubPublisher } from './github/GithubPublisher';
import { LocalGitPublisher } from './local/LocalGitPublisher';
import { GitopsPublisher } from './types';

export const DEFAULT_LOCAL_GITOPS_PATH = '.data/gitops.git';

const MERGE_METHODS = ['merge', 'squash', 'rebase'] as const;

/**
 * The publisher `infrared.gitops` asks for: `type: local` (default; `path`, relative to `rootDir`) or
 * `type: github` (`repoUrl`, optional `branch`, `mergeMethod`; credentials from `integrations.github`).
 */
export function createGitopsPublisher(options: {
  config: Config;
  logger: LoggerService;
  /** What a relative local `path` is resolved against: the repository root. */
  rootDir: string;
}): GitopsPublisher {
  const { config, logger, rootDir } = options;
  const gitops = config.getOptionalConfig('infrared.gitops');
  const type = gitops?.getOptionalString('type') ?? 'local';
  if (type === 'local') {
    const path = gitops?.getOptionalString('path') ?? DEFAULT_LOCAL_GITOPS_PATH;
    return new LocalGitPublisher({
      path: isAbsolute(path) ? path : resolve(rootDir, path),
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
      branch: gitops!.getOptionalString('branch'),
      mergeMethod: mergeMethod as (typeof MERGE_METHODS)[number],
      logger,
    });
  }
  throw new Error(
    `infrared.gitops.type must be local or github, not "${type}"`,
  );
}

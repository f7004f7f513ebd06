import type { LoggerService } from '@backstage/backend-plugin-api';
import { ConfigReader } from '@backstage/config';
import type {
  GitopsPublisher,
  GitopsPublishResult,
} from '@infrared-clusters/plugin-infrared-node';
import { readClustersConfig } from '../../clusters/config';
import { registrationChange } from '../../clusters/observe';
import {
  BatchingPublisher,
  type BatchingPublisherOptions,
} from '../batch/BatchingPublisher';
import { createGitopsPublisher } from '../createGitopsPublisher';
import type { RetryOptions } from '../github/retry';
import type { FakeGithubServer } from './fakeGithubServer';
import type { FakeGithubRepo } from './fakeGithubRepo';
import { REPO_URL } from './githubHarness';

/**
 * The publisher stack the backend builds for `infrared.gitops.type: github`: createGitopsPublisher
 * under the BatchingPublisher createClusters wraps it in, with `infrared.gitops.batch` from config
 * (default maxFilesPerChange 1000), against the fake GitHub.
 */
export function githubStack(options: {
  server: FakeGithubServer;
  logger: LoggerService;
  maxFilesPerChange?: number;
  githubRetry?: RetryOptions;
  /** The BatchingPublisher's window (its defaults when left out). */
  window?: Omit<BatchingPublisherOptions, 'maxFilesPerChange'>;
}): GitopsPublisher {
  const { server, maxFilesPerChange } = options;
  const config = new ConfigReader({
    infrared: {
      gitops: {
        type: 'github',
        repoUrl: REPO_URL,
        ...(maxFilesPerChange ? { batch: { maxFilesPerChange } } : {}),
      },
    },
    integrations: {
      github: [
        {
          host: 'github.test',
          apiBaseUrl: server.apiBaseUrl,
          token: server.token,
        },
      ],
    },
  });
  const github = createGitopsPublisher({
    config,
    logger: options.logger,
    rootDir: '/srv/portal',
    githubRetry: options.githubRetry,
  });
  return new BatchingPublisher(github, {
    maxFilesPerChange: readClustersConfig(config).maxFilesPerChange,
    ...options.window,
  });
}

/**
 * What a reconcile pass does with `names` newly Connected clusters: describe the repository once,
 * then publish each cluster's registration change at once, concurrently.
 */
export async function registerAtOnce(
  publisher: GitopsPublisher,
  names: string[],
): Promise<PromiseSettledResult<GitopsPublishResult>[]> {
  const repo = await publisher.describe();
  return Promise.allSettled(
    names.map(name => {
      const { gitopsPath, defaultBranch, ...change } = registrationChange(
        name,
        'infrared-mgmt',
        repo,
      );
      return publisher.publish(change);
    }),
  );
}

/**
 * Registrations as the API brings them: each POST starts a pass of its own, which reaches its
 * publish a moment later, so they arrive over time, `perSecond` a second, evenly spread
 * (bench/scale's POSTs, 50 at a time, bring 1,000 in 50-70 s: about 17 a second). Resolves when
 * every publish has settled.
 */
export async function registerOverTime(
  publisher: GitopsPublisher,
  names: string[],
  perSecond: number,
): Promise<PromiseSettledResult<GitopsPublishResult>[]> {
  const repo = await publisher.describe();
  const publishes: Promise<GitopsPublishResult>[] = [];
  const start = Date.now();
  for (const [i, name] of names.entries()) {
    const due = start + (i * 1000) / perSecond;
    if (due > Date.now())
      await new Promise(r => setTimeout(r, due - Date.now()));
    const { gitopsPath, defaultBranch, ...change } = registrationChange(
      name,
      'infrared-mgmt',
      repo,
    );
    publishes.push(publisher.publish(change));
  }
  return Promise.allSettled(publishes);
}

/** The cluster names `<prefix>-0` .. `<prefix>-<count - 1>`. */
export const clusterNames = (count: number, prefix = 'edge') =>
  Array.from({ length: count }, (_, i) => `${prefix}-${i}`);

/** The app-of-apps file a registration adds (what Argo CD syncs). */
export const appOfApps = (name: string) =>
  `registry/clusters/infrared-mgmt/components/cluster-${name}.yaml`;

/** Each path a merged pull request changed on its base, with the numbers of the pull requests that did. */
export function landedPaths(repo: FakeGithubRepo): Map<string, number[]> {
  const landed = new Map<string, number[]>();
  for (const pull of repo.pulls.filter(p => p.merged)) {
    const merge = repo.commits.get(pull.mergeCommit!)!;
    const before = repo.treeOf(merge.parents[0]);
    for (const path of repo.changedPaths(before, repo.treeOf(merge.sha))) {
      landed.set(path, [...(landed.get(path) ?? []), pull.number]);
    }
  }
  return landed;
}

import { LoggerService } from '@backstage/backend-plugin-api';
import { Config } from '@backstage/config';
import {
  branchForKey,
  gitBlobSha,
  KeyedMutex,
  validateChange,
} from '../change';
import {
  GitopsChange,
  GitopsPublisher,
  GitopsPublishResult,
  GitopsRepoDescription,
} from '../types';
import {
  GithubClientFactory,
  GithubRepoRef,
  parseGithubRepoUrl,
} from './client';
import { describeGithubError, GitopsPublishError } from './errors';
import { realSleep, RetryOptions, Sleep } from './retry';
import { mergePullRequest, openPullRequest } from './pullRequests';
import { GithubSession, TreeEntry } from './session';

export interface GithubPublisherOptions {
  /** The root config: its `integrations.github` gives the credentials and the API base URL. */
  config: Config;
  repoUrl: string;
  /** Default: the repository's default branch. */
  branch?: string;
  mergeMethod?: 'merge' | 'squash' | 'rebase';
  logger?: LoggerService;
  /** How many times a change is rebuilt when the base branch moved or the merge conflicted. Default 5. */
  maxAttempts?: number;
  /** Injectable for tests: every wait (retry-after, backoff) goes through it. */
  sleep?: Sleep;
  retry?: Omit<RetryOptions, 'sleep' | 'logger'>;
}

const mutex = new KeyedMutex();

/**
 * Publishes through real pull requests: a branch `infrared/<key>` rebuilt on the base head, one commit through
 * the git data API, a pull request (the open one of the branch is reused), merge, branch deleted.
 */
export class GithubPublisher implements GitopsPublisher {
  private readonly ref: GithubRepoRef;
  private readonly clients: GithubClientFactory;
  private readonly sleep: Sleep;

  constructor(private readonly options: GithubPublisherOptions) {
    this.ref = parseGithubRepoUrl(options.repoUrl);
    this.sleep = options.sleep ?? realSleep;
    this.clients = new GithubClientFactory(options.config, {
      logger: options.logger,
      retry: { ...options.retry, sleep: this.sleep },
    });
  }

  async describe(): Promise<GitopsRepoDescription> {
    const { host, owner, repo } = this.ref;
    const defaultBranch =
      this.options.branch ?? (await this.run(session => session.baseBranch()));
    return {
      type: 'github',
      repoUrl: this.options.repoUrl,
      defaultBranch,
      fileUrlPrefix: `https://${host}/${owner}/${repo}/blob/${defaultBranch}/`,
    };
  }

  async publish(change: GitopsChange): Promise<GitopsPublishResult> {
    validateChange(change);
    const { host, owner, repo } = this.ref;
    return mutex.run(`${host}/${owner}/${repo}`, () =>
      this.run(session => this.publishWith(session, change)),
    );
  }

  /** Runs `fn` with a fresh client (installation tokens expire) and maps failures to clear messages. */
  private async run<T>(fn: (session: GithubSession) => Promise<T>): Promise<T> {
    const { owner, repo } = this.ref;
    let token: string | undefined;
    let session: GithubSession | undefined;
    let apiBaseUrl = this.options.repoUrl;
    try {
      apiBaseUrl = this.clients.apiBaseUrl(this.options.repoUrl);
      const client = await this.clients.create(this.options.repoUrl);
      token = client.token;
      session = new GithubSession(client.octokit, owner, repo);
      return await fn(session);
    } catch (error) {
      throw describeGithubError(error, {
        step: session?.step ?? 'get credentials',
        repo: `${owner}/${repo}`,
        apiBaseUrl,
        secrets: [token],
      });
    }
  }

  private async publishWith(
    session: GithubSession,
    change: GitopsChange,
  ): Promise<GitopsPublishResult> {
    const { host, owner, repo } = this.ref;
    const base = await session.baseBranch(this.options.branch);
    const branch = branchForKey(change.key);
    const maxAttempts = this.options.maxAttempts ?? 5;
    let refusal: string | undefined;
    for (let attempt = 1; attempt <= maxAttempts; attempt++) {
      const head = await session.headOf(base);
      const entries = treeEntries(
        change,
        await session.currentFiles(head, change),
      );
      if (entries.length === 0) {
        // Already on the base branch (also after a restart between merge and branch deletion).
        await session.deleteBranch(branch);
        const url = `https://${host}/${owner}/${repo}/commit/${head}`;
        return { url, commit: head, merged: true };
      }
      const message = `${change.title}\n\n${change.body}`;
      const commit = await session.commit(head, entries, message);
      await session.pointBranch(branch, commit);
      const pull = await openPullRequest(session, base, branch, change);
      const merge = await mergePullRequest(
        session,
        pull.number,
        commit,
        this.options.mergeMethod ?? 'merge',
      );
      const merged = merge.sha;
      if (merged) {
        await session.deleteBranch(branch);
        this.options.logger?.info(
          `gitops: merged ${pull.url} (${change.key}) as ${merged}`,
        );
        return {
          url: pull.url,
          commit: merged,
          merged: true,
          pullRequest: pull,
        };
      }
      refusal = merge.refusal;
      this.options.logger?.info(
        `gitops: ${pull.url} cannot be merged (${refusal}); rebuilding it on the new head of ${base}`,
      );
      await this.sleep(1000 * attempt);
    }
    throw new GitopsPublishError(
      `gitops: gave up merging "${change.key}" into ${base} of ${owner}/${repo} after ${maxAttempts} attempts; GitHub said: ${refusal}`,
    );
  }
}

/** Tree entries for the git data API: the files that differ, and deletions of paths that exist. */
function treeEntries(
  change: GitopsChange,
  present: Map<string, string | undefined>,
): TreeEntry[] {
  const entries: TreeEntry[] = [];
  for (const [path, content] of Object.entries(change.files)) {
    if (present.get(path) !== gitBlobSha(content)) {
      entries.push({ path, mode: '100644', type: 'blob', content });
    }
  }
  for (const path of change.deletions ?? []) {
    if (present.get(path) !== undefined) {
      entries.push({ path, mode: '100644', type: 'blob', sha: null });
    }
  }
  return entries;
}

import { LoggerService } from '@backstage/backend-plugin-api';
import { Config } from '@backstage/config';
import { branchForKey, validateChange } from '../change';
import { KeyedLock } from '@infrared-clusters/infrared-kube';
import type {
  GitopsChange,
  GitopsPublisher,
  GitopsPublishOptions,
  GitopsPublishResult,
  GitopsPullRequest,
  GitopsRepoDescription,
} from '@infrared-clusters/plugin-infrared-node';
import {
  GithubClientFactory,
  GithubRepoRef,
  parseGithubRepoUrl,
} from './client';
import { describeGithubError, GitopsPublishError } from './errors';
import { realSleep, RetryOptions, Sleep } from './retry';
import { checkPending } from './pending';
import { mergePullRequest, openPullRequest } from './pullRequests';
import { GithubSession } from './session';
import { buildEntries, finishMerged } from './steps';

export interface GithubPublisherOptions {
  /** The root config: its `integrations.github` gives the credentials and the API base URL. */
  config: Config;
  /** The https URL of the repository, `https://<host>/<owner>/<repo>`: GitHub's API and git both answer it. */
  repoUrl: string;
  /** The URL Argo CD clones the repository from (e.g. an ssh URL). Default `repoUrl`, its https clone URL. */
  argocdRepoUrl?: string;
  /** Default: the repository's default branch. */
  branch?: string;
  mergeMethod?: 'merge' | 'squash' | 'rebase';
  /**
   * Merge the pull request once it is opened. Default true. False: the pull request is opened and left for
   * a human to merge (`state: 'open'`); later publishes with `pending` see when it is merged or closed.
   */
  autoMerge?: boolean;
  logger?: LoggerService;
  /**
   * How many times a change is rebuilt when the base branch moved or the merge conflicted. Default 5. A merge
   * refused by the repository's rules (required reviews or checks) is not retried: the pull request is left
   * open.
   */
  maxAttempts?: number;
  /** The wait before a change is rebuilt; injectable for tests. */
  sleep?: Sleep;
  /** Retries of GitHub requests (5xx, rate limits): the Octokit plugins' settings. */
  retry?: RetryOptions;
}

const mutex = new KeyedLock();

/**
 * How long the repository's default branch and the push permission are taken as read: a pass describes
 * the repository, and a thousand registrations must not cost a thousand reads of it.
 */
const REPOSITORY_TTL_MS = 5 * 60_000;

/**
 * Publishes through real pull requests: a branch `infrared/<key>` rebuilt on the base head, one commit through
 * the git data API, a pull request (the open one of the branch is reused), merge, branch deleted. When the
 * repository requires reviews or checks (or auto-merge is off) the pull request stays open; a later publish
 * with it as `pending` checks it without pushing.
 */
export class GithubPublisher implements GitopsPublisher {
  private readonly ref: GithubRepoRef;
  private readonly clients: GithubClientFactory;
  private readonly sleep: Sleep;
  private repository?: { branch: string; until: number };

  constructor(private readonly options: GithubPublisherOptions) {
    this.ref = parseGithubRepoUrl(options.repoUrl);
    this.sleep = options.sleep ?? realSleep;
    this.clients = new GithubClientFactory(options.config, {
      logger: options.logger,
      retry: options.retry,
    });
  }

  async describe(): Promise<GitopsRepoDescription> {
    const { host, owner, repo } = this.ref;
    const defaultBranch =
      this.options.branch ??
      (await this.run(session => this.baseBranch(session)));
    return {
      type: 'github',
      repoUrl: this.options.argocdRepoUrl ?? this.options.repoUrl,
      defaultBranch,
      fileUrlPrefix: `https://${host}/${owner}/${repo}/blob/${defaultBranch}/`,
    };
  }

  /**
   * Publishes the change; with `options.pending`, looks at that pull request first and pushes nothing while it
   * waits with the wanted content.
   */
  async publish(
    change: GitopsChange,
    options: GitopsPublishOptions = {},
  ): Promise<GitopsPublishResult> {
    validateChange(change);
    const { host, owner, repo } = this.ref;
    return mutex.run(`${host}/${owner}/${repo}`, () =>
      this.run(session => this.publishWith(session, change, options.pending)),
    );
  }

  /** The base branch (configured, else the default), read at most once per REPOSITORY_TTL_MS. */
  private async baseBranch(session: GithubSession): Promise<string> {
    const now = Date.now();
    if (this.repository && this.repository.until > now) {
      return this.repository.branch;
    }
    const branch = await session.baseBranch(this.options.branch);
    this.repository = { branch, until: now + REPOSITORY_TTL_MS };
    return branch;
  }

  private get autoMerge(): boolean {
    return this.options.autoMerge ?? true;
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
    pending?: GitopsPullRequest,
  ): Promise<GitopsPublishResult> {
    const base = await this.baseBranch(session);
    const branch = branchForKey(change.key);
    if (pending) {
      const checked = await checkPending(
        {
          logger: this.options.logger,
          autoMerge: this.autoMerge,
          mergeMethod: this.options.mergeMethod ?? 'merge',
        },
        session,
        change,
        base,
        pending,
      );
      if (checked) return checked;
    }
    return this.build(session, change, base, branch);
  }

  /**
   * Builds the branch on the head of the base, opens (or reuses) its pull request and, with auto-merge,
   * merges it. Rebuilt when the base moved under it, at most maxAttempts times; left open when the
   * repository's rules refuse the merge.
   */
  private async build(
    session: GithubSession,
    change: GitopsChange,
    base: string,
    branch: string,
  ): Promise<GitopsPublishResult> {
    const { host, owner, repo } = this.ref;
    const { logger } = this.options;
    const maxAttempts = this.options.maxAttempts ?? 5;
    let refusal: string | undefined;
    for (let attempt = 1; attempt <= maxAttempts; attempt++) {
      const head = await session.branchHead(base);
      const entries = await buildEntries(session, change, head.commit);
      // Every file is written, changed or not: a tree equal to the base's means the change is there.
      const tree = entries.length
        ? await session.createTree(head.tree, entries)
        : head.tree;
      if (tree === head.tree) {
        // Already on the base branch (also after a restart between merge and branch deletion).
        await session.deleteBranch(branch);
        const url = `https://${host}/${owner}/${repo}/commit/${head.commit}`;
        return { url, commit: head.commit, state: 'merged', merged: true };
      }
      const message = `${change.title}\n\n${change.body}`;
      const commit = await session.commit(head.commit, tree, message);
      const pushed = await session.pointBranch(branch, commit);
      const pull = await openPullRequest(session, base, branch, change, {
        // a branch that did not exist has no open pull request to reuse
        newBranch: pushed === 'created',
      });
      const open: GitopsPublishResult = {
        url: pull.url,
        commit,
        state: 'open',
        merged: false,
        pullRequest: pull,
      };
      if (!this.autoMerge) {
        logger?.info(
          `gitops: opened ${pull.url} (${change.key}); auto-merge is off, it waits for a human to merge it`,
        );
        return open;
      }
      const merge = await mergePullRequest(
        session,
        pull.number,
        commit,
        this.options.mergeMethod ?? 'merge',
      );
      if (merge.sha !== undefined) {
        return finishMerged(session, logger, change, branch, pull, merge.sha);
      }
      if (merge.closed) {
        logger?.info(
          `gitops: ${pull.url} (${change.key}) was closed before it could be merged; it is not reopened`,
        );
        return { ...open, state: 'closed' };
      }
      if (!merge.stale) {
        logger?.info(
          `gitops: ${pull.url} (${change.key}) is left open: GitHub refused to merge it (${merge.refusal}); it is checked again on the next publish, not rebuilt`,
        );
        return open;
      }
      refusal = merge.refusal;
      logger?.info(
        `gitops: ${pull.url} cannot be merged (${refusal}); rebuilding it on the new head of ${base}`,
      );
      await this.sleep(1000 * attempt);
    }
    throw new GitopsPublishError(
      `gitops: gave up merging "${change.key}" into ${base} of ${owner}/${repo} after ${maxAttempts} attempts; GitHub said: ${refusal}`,
    );
  }
}

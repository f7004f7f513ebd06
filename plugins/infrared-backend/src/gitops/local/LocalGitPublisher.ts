import { LoggerService } from '@backstage/backend-plugin-api';
import { resolve } from 'node:path';
import {
  branchForKey,
  PUBLISHER_CLOSED_MESSAGE,
  validateChange,
} from '../change';
import { KeyedLock } from '@infrared-clusters/infrared-kube';
import type {
  GitopsChange,
  GitopsPublisher,
  GitopsPublishOptions,
  GitopsPublishResult,
  GitopsRepoDescription,
} from '@infrared-clusters/plugin-infrared-node';
import { Git, GitIdentity } from './git';
import {
  closePullRecords,
  listPullRecords,
  LocalPullRequest,
  openPullRecords,
  pullMessage,
  pullRef,
  pushPullBranch,
} from './pullRecords';
import { withProcessLock } from './processLock';
import { initRepository, readBranch } from './repository';
import { KeptTrees } from './keptTrees';
import { commitBody, LooseObjects } from './objects';

export interface LocalGitPublisherOptions {
  /** The bare repository; created with an initial commit when absent. */
  path: string;
  /**
   * The URL Argo CD clones this repository from (the Applications' `source.repoURL`), e.g. the
   * loopback git server's `git://127.0.0.1:<port>/gitops.git`. Default `file://<path>`, which only an
   * Argo CD on this machine can read.
   */
  argocdRepoUrl?: string;
  defaultBranch?: string;
  identity?: GitIdentity;
  logger?: LoggerService;
  /** How many times a change is rebuilt when the default branch moved under it. Default 5. */
  maxAttempts?: number;
  /** Test seam: runs after the branch is pushed and before the merge lands on the default branch. */
  beforeMerge?: (branch: string) => Promise<void>;
  /** Serializes publishes to one repository; shared by every instance of this process by default. */
  mutex?: KeyedLock;
  /**
   * Also take turns with other processes through a lock in the repository. Default true; tests that
   * race two writers on purpose turn it off.
   */
  processLock?: boolean;
}

const sharedMutex = new KeyedLock();

const README = `# Gitops repository\n\nWritten by Infrared through pull requests. Argo CD syncs \`registry/\`.\n`;

/**
 * The embedded publisher: a real bare git repository where a pull request is a branch plus a `--no-ff` merge
 * commit on the default branch. It writes objects and refs directly in the bare repository (no work tree); the
 * default branch only moves by compare-and-swap, so a writer in another process is detected like a rejected
 * non-fast-forward push, and the change is rebuilt on the new head.
 *
 * There is no one to review a local pull request: every publish merges (`state: 'merged'`), whatever
 * `infrared.gitops.autoMerge` says, and a `pending` pull request is never needed.
 */
export class LocalGitPublisher implements GitopsPublisher {
  readonly path: string;
  private readonly git: Git;
  private readonly branch: string;
  private readonly mutex: KeyedLock;
  private initialized = false;
  private closed = false;
  private readonly identity: GitIdentity;
  private readonly objects: LooseObjects;
  private readonly trees: KeptTrees;

  constructor(private readonly options: LocalGitPublisherOptions) {
    this.path = resolve(options.path);
    this.branch = options.defaultBranch ?? 'main';
    this.mutex = options.mutex ?? sharedMutex;
    this.identity = options.identity ?? {
      name: 'Infrared',
      email: 'infrared@localhost',
    };
    this.git = new Git(this.path, this.identity);
    this.objects = new LooseObjects(this.path);
    this.trees = new KeptTrees(this.git, this.objects);
  }

  async describe(): Promise<GitopsRepoDescription> {
    return {
      type: 'local',
      repoUrl: this.options.argocdRepoUrl ?? `file://${this.path}`,
      defaultBranch: this.branch,
    };
  }

  /** Merges the change at once; `_options.pending` never applies, as no local pull request stays open. */
  async publish(
    change: GitopsChange,
    _options?: GitopsPublishOptions,
  ): Promise<GitopsPublishResult> {
    validateChange(change);
    if (this.closed) throw new Error(PUBLISHER_CLOSED_MESSAGE);
    return this.mutex.run(this.path, async () => {
      await this.ensureRepository(); // the lock lives in it
      return this.options.processLock === false
        ? this.publishNow(change)
        : withProcessLock(
            this.path,
            () => this.publishNow(change),
            this.options.logger,
          );
    });
  }

  /**
   * Waits for the publishes under way (this process's, on this repository), then ends the kept git
   * process, so nothing of this publisher writes in the repository after it resolves.
   */
  async close(): Promise<void> {
    this.closed = true;
    await this.mutex.run(this.path, () => this.git.close());
  }

  /** The recorded pull requests, oldest first. */
  async listPullRequests(): Promise<LocalPullRequest[]> {
    await this.ensureRepository();
    return listPullRecords(this.git);
  }

  private async publishNow(change: GitopsChange): Promise<GitopsPublishResult> {
    await this.ensureRepository();
    const branch = branchForKey(change.key);
    const mainRef = `refs/heads/${this.branch}`;
    const maxAttempts = this.options.maxAttempts ?? 5;
    for (let attempt = 1; ; attempt++) {
      const head = (await readBranch(this.git, this.path, mainRef))!;
      if (await this.trees.isApplied(head, change)) {
        return this.alreadyMerged(head, change.key, branch);
      }
      // git reads the pull request numbers while this process builds the trees
      const records = openPullRecords(this.git);
      records.catch(() => undefined); // awaited (and thrown) by pushPullBranch
      const tree = await this.trees.buildTree(head, change);
      const pr = {
        key: change.key,
        title: change.title,
        body: change.body,
        branch,
      };
      const pull = await pushPullBranch(
        this.git,
        change.key,
        branch,
        number =>
          this.commit(tree, [head], pullMessage('branch', { ...pr, number })),
        records,
      );
      await this.options.beforeMerge?.(branch);
      const merge = await this.commit(
        tree,
        [head, pull.commit],
        pullMessage('merge', { ...pr, number: pull.number }),
      );
      const landed = await this.git.updateRefs([
        `update ${mainRef} ${merge} ${head}`,
        `update ${pullRef(pull.number)} ${merge} ${pull.commit}`,
        `delete refs/heads/${branch}`,
      ]);
      if (landed) {
        this.trees.landed(merge, tree);
        this.options.logger?.info(
          `gitops: merged pull request #${pull.number} (${change.key}) as ${merge}`,
        );
        const url = this.url(merge);
        return {
          url,
          commit: merge,
          state: 'merged',
          merged: true,
          pullRequest: { number: pull.number, url },
        };
      }
      if (attempt >= maxAttempts) {
        throw new Error(
          `gitops: ${this.branch} of ${this.path} kept moving; gave up merging "${change.key}" after ${attempt} attempts`,
        );
      }
      this.options.logger?.info(
        `gitops: ${this.branch} moved while merging "${
          change.key
        }"; rebuilding on the new head (attempt ${attempt + 1})`,
      );
      await new Promise(r => setTimeout(r, Math.random() * 50 * attempt));
    }
  }

  /**
   * The result for a change `head` already has. Also cleans up after a restart between the merge and the
   * branch deletion, and closes the pull request an attempt of this change recorded before another writer
   * landed the same files.
   */
  private async alreadyMerged(
    head: string,
    key: string,
    branch: string,
  ): Promise<GitopsPublishResult> {
    await this.git.updateRefs([`delete refs/heads/${branch}`]);
    await closePullRecords(this.git, key);
    const last = (await listPullRecords(this.git))
      .filter(r => r.key === key && r.merged)
      .pop();
    return {
      url: this.url(head),
      commit: head,
      state: 'merged',
      merged: true,
      pullRequest: last && {
        number: last.number,
        url: this.url(last.commit),
      },
    };
  }

  /** Writes a commit object in this process (`git commit-tree` would be one more process). */
  private commit(tree: string, parents: string[], message: string) {
    return this.objects.write(
      'commit',
      commitBody(tree, parents, this.identity, message),
    );
  }

  private url(commit: string) {
    return `file://${this.path}#${commit}`;
  }

  private async ensureRepository(): Promise<void> {
    if (!this.initialized) {
      await initRepository(this.git, this.path, this.branch, README);
      this.initialized = true;
    }
  }
}

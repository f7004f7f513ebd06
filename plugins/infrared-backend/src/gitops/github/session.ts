import type { Octokit } from '@octokit/rest';
import type { GitopsChange } from '@infrared-clusters/plugin-infrared-node';
import { GitopsPublishError, READ_REPOSITORY } from './errors';

export type TreeEntry = {
  path: string;
  mode: '100644';
  type: 'blob';
  content?: string;
  sha?: null;
};

export interface BranchHead {
  commit: string;
  tree: string;
}

export const statusOf = (error: unknown) =>
  (error as { status?: number })?.status;

/**
 * The GitHub calls of one publish. `step` names the call in flight, so a failure can say what was being done.
 */
export class GithubSession {
  step = READ_REPOSITORY;

  constructor(
    readonly octokit: Octokit,
    readonly owner: string,
    readonly repo: string,
  ) {}

  /** The configured base branch, else the repository's default; fails early on read-only credentials. */
  async baseBranch(configured?: string): Promise<string> {
    this.step = READ_REPOSITORY;
    const { data } = await this.octokit.repos.get({
      owner: this.owner,
      repo: this.repo,
    });
    if (data.permissions && !data.permissions.push) {
      throw new GitopsPublishError(
        `The GitHub credentials can read ${data.full_name} but not push to it: grant write access to contents and pull requests`,
      );
    }
    return configured ?? data.default_branch;
  }

  /** The head commit of a branch and its tree, in one request. */
  async branchHead(branch: string): Promise<BranchHead> {
    this.step = `read branch ${branch}`;
    const { data } = await this.octokit.repos.getBranch({
      owner: this.owner,
      repo: this.repo,
      branch,
    });
    return { commit: data.commit.sha, tree: data.commit.commit.tree.sha };
  }

  /**
   * The blob sha of each path of the change at `commit` (undefined: absent): one recursive tree read,
   * or one read per path when GitHub truncates the tree (over 100,000 entries).
   */
  async currentFiles(commit: string, change: GitopsChange) {
    const paths = [...Object.keys(change.files), ...(change.deletions ?? [])];
    this.step = `read the tree of ${commit}`;
    const { data } = await this.octokit.git.getTree({
      owner: this.owner,
      repo: this.repo,
      tree_sha: commit,
      recursive: 'true',
    });
    if (data.truncated) return this.readEach(commit, paths);
    const entries = new Map(data.tree.map(e => [e.path, e]));
    const present = new Map<string, string | undefined>();
    for (const path of paths) {
      const entry = entries.get(path);
      present.set(
        path,
        entry && (entry.type === 'blob' ? entry.sha : 'not-a-file'),
      );
    }
    return present;
  }

  private async readEach(commit: string, paths: string[]) {
    const present = new Map<string, string | undefined>();
    for (const path of paths) {
      this.step = `read ${path}`;
      try {
        const { data } = await this.octokit.repos.getContent({
          owner: this.owner,
          repo: this.repo,
          path,
          ref: commit,
        });
        present.set(
          path,
          !Array.isArray(data) && data.type === 'file'
            ? data.sha
            : 'not-a-file',
        );
      } catch (error) {
        if (statusOf(error) !== 404) throw error;
        present.set(path, undefined);
      }
    }
    return present;
  }

  /** The tree of `base` with the entries applied; the same sha as `base` when they change nothing. */
  async createTree(base: string, entries: TreeEntry[]): Promise<string> {
    this.step = 'create commit';
    const { data } = await this.octokit.git.createTree({
      owner: this.owner,
      repo: this.repo,
      base_tree: base,
      tree: entries,
    });
    return data.sha;
  }

  /** A commit of `tree` on top of `parent`. */
  async commit(parent: string, tree: string, message: string): Promise<string> {
    this.step = 'create commit';
    const { data } = await this.octokit.git.createCommit({
      owner: this.owner,
      repo: this.repo,
      message,
      tree,
      parents: [parent],
    });
    return data.sha;
  }

  /**
   * Creates the branch at `sha`, or force-moves it there when it exists: the branch is always rebuilt
   * from the current base. Says which, since only an existing branch can have an open pull request.
   */
  async pointBranch(branch: string, sha: string): Promise<'created' | 'moved'> {
    const { owner, repo } = this;
    this.step = `push branch ${branch}`;
    try {
      await this.octokit.git.createRef({
        owner,
        repo,
        ref: `refs/heads/${branch}`,
        sha,
      });
      return 'created';
    } catch (error) {
      // 422 "Reference already exists": a branch an earlier publish of this key left.
      if (statusOf(error) !== 422) throw error;
      await this.octokit.git.updateRef({
        owner,
        repo,
        ref: `heads/${branch}`,
        sha,
        force: true,
      });
      return 'moved';
    }
  }

  async deleteBranch(branch: string): Promise<void> {
    this.step = `delete branch ${branch}`;
    try {
      await this.octokit.git.deleteRef({
        owner: this.owner,
        repo: this.repo,
        ref: `heads/${branch}`,
      });
    } catch (error) {
      if (statusOf(error) !== 404 && statusOf(error) !== 422) throw error;
    }
  }
}

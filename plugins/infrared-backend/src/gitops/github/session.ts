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

  async headOf(branch: string): Promise<string> {
    this.step = `read branch ${branch}`;
    const { data } = await this.octokit.git.getRef({
      owner: this.owner,
      repo: this.repo,
      ref: `heads/${branch}`,
    });
    return data.object.sha;
  }

  /** The blob sha of each path of the change at `commit` (undefined: absent). */
  async currentFiles(commit: string, change: GitopsChange) {
    const present = new Map<string, string | undefined>();
    for (const path of [
      ...Object.keys(change.files),
      ...(change.deletions ?? []),
    ]) {
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

  /** A commit on top of `parent` with the tree entries applied (git data API: one commit, any number of files). */
  async commit(
    parent: string,
    entries: TreeEntry[],
    message: string,
  ): Promise<string> {
    const { owner, repo } = this;
    this.step = 'create commit';
    const { data: parentCommit } = await this.octokit.git.getCommit({
      owner,
      repo,
      commit_sha: parent,
    });
    const { data: tree } = await this.octokit.git.createTree({
      owner,
      repo,
      base_tree: parentCommit.tree.sha,
      tree: entries,
    });
    const { data: commit } = await this.octokit.git.createCommit({
      owner,
      repo,
      message,
      tree: tree.sha,
      parents: [parent],
    });
    return commit.sha;
  }

  /** Force-moves (or creates) the branch to `sha`: the branch is always rebuilt from the current base. */
  async pointBranch(branch: string, sha: string): Promise<void> {
    const { owner, repo } = this;
    this.step = `push branch ${branch}`;
    try {
      await this.octokit.git.updateRef({
        owner,
        repo,
        ref: `heads/${branch}`,
        sha,
        force: true,
      });
    } catch (error) {
      // 422 "Reference does not exist": the first publish of this key.
      if (statusOf(error) !== 422) throw error;
      await this.octokit.git.createRef({
        owner,
        repo,
        ref: `refs/heads/${branch}`,
        sha,
      });
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

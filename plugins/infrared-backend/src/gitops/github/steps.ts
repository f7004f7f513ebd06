/**
 * Steps both ways of publishing share (building a branch, and looking at a pending pull request):
 * whether a commit already holds the change, the tree entries of a build, and a merge's result.
 */
import type { LoggerService } from '@backstage/backend-plugin-api';
import type {
  GitopsChange,
  GitopsPublishResult,
} from '@infrared-clusters/plugin-infrared-node';
import { GithubSession, TreeEntry } from './session';
import { treeEntries } from './treeEntries';

/** Whether `commit` already has the change: every file with its content, none of its deletions. */
export async function holdsChange(
  session: GithubSession,
  change: GitopsChange,
  commit: string,
): Promise<boolean> {
  const present = await session.currentFiles(commit, change);
  return treeEntries(change, present).length === 0;
}

/**
 * The tree entries of a build: every file, and the deletions of paths present at `commit` (read
 * only when the change deletes something: GitHub refuses to delete a path that is not there).
 */
export async function buildEntries(
  session: GithubSession,
  change: GitopsChange,
  commit: string,
): Promise<TreeEntry[]> {
  const deletes = change.deletions?.length
    ? await session.currentFiles(commit, { ...change, files: {} })
    : new Map<string, string | undefined>();
  return treeEntries(change, deletes, { unchanged: true });
}

/** A pull request merged as `sha`: its branch deleted, the result says merged. */
export async function finishMerged(
  session: GithubSession,
  logger: LoggerService | undefined,
  change: GitopsChange,
  branch: string,
  pull: { number: number; url: string },
  sha: string,
): Promise<GitopsPublishResult> {
  await session.deleteBranch(branch);
  logger?.info(`gitops: merged ${pull.url} (${change.key}) as ${sha}`);
  return {
    url: pull.url,
    commit: sha,
    state: 'merged',
    merged: true,
    pullRequest: pull,
  };
}

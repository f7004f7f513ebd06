import type { PullRequestRef } from '@infrared-clusters/plugin-infrared-common';

/**
 * What the panel says about a cluster's gitops change: what a user can act on. For a change in a
 * local repository (a `file://` URL), where the repository lives and the git command that shows it.
 */
export interface ChangeSummary {
  /** `pull request #7`, linked when its URL is on the web. */
  pullRequest?: { label: string; href?: string };
  /** The commit, short and full. */
  commit?: { short: string; full: string };
  /** The branch the commit is on (the default branch once merged). */
  branch?: string;
  /** False while the pull request waits to be merged. */
  merged?: boolean;
  /** A web URL of the change when there is neither a pull request number nor a commit. */
  href?: string;
  /** The local repository (a `file://` URL): its path, and `git -C <path> show <commit>`. */
  local?: { path: string; command?: string };
}

/** A word for a POSIX shell: as it is when it has nothing special, else in single quotes. */
export function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word)
    ? word
    : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** The path of a `file://` URL (its fragment and query left out), or undefined. */
export function localRepositoryPath(
  url: string | undefined,
): string | undefined {
  if (!url || !/^file:\/\//i.test(url)) return undefined;
  try {
    const path = decodeURIComponent(new URL(url).pathname);
    return path || undefined;
  } catch {
    return undefined;
  }
}

export const SHORT_COMMIT = 7;

export function isWebUrl(url: string | undefined): url is string {
  return !!url && /^https?:\/\//i.test(url);
}

/**
 * The change's pull request, commit and branch. For a local repository's `file:///...#<commit>`
 * URL, the repository's path and how to read the commit there (`git -C <path> show <commit>`).
 */
export function changeSummary(
  pr: PullRequestRef | undefined,
): ChangeSummary | undefined {
  if (!pr) return undefined;
  const web = isWebUrl(pr.url) ? pr.url : undefined;
  const full = pr.commit || /#([0-9a-f]{7,64})$/i.exec(pr.url ?? '')?.[1];
  const summary: ChangeSummary = {};
  if (pr.number !== undefined)
    summary.pullRequest = { label: `pull request #${pr.number}`, href: web };
  if (full) summary.commit = { short: full.slice(0, SHORT_COMMIT), full };
  if (pr.branch) summary.branch = pr.branch;
  if (pr.merged !== undefined) summary.merged = pr.merged;
  const path = localRepositoryPath(pr.url);
  if (path) {
    summary.local = {
      path,
      ...(full ? { command: `git -C ${shellWord(path)} show ${full}` } : {}),
    };
  }
  if (!summary.pullRequest && !summary.commit) {
    if (!web) return undefined;
    summary.href = web;
  }
  return summary;
}

import type { GitopsChange } from '@infrared-clusters/plugin-infrared-node';
import { GithubSession, statusOf } from './session';

/**
 * The open pull request of the branch, updated to the change's title and body, or a new one. A
 * `newBranch` has none (GitHub closes a pull request when its branch is deleted): no need to look.
 */
export async function openPullRequest(
  session: GithubSession,
  base: string,
  branch: string,
  change: GitopsChange,
  options: { newBranch?: boolean } = {},
) {
  const { octokit, owner, repo } = session;
  session.step = 'open pull request';
  const find = async () => {
    const { data } = await octokit.pulls.list({
      owner,
      repo,
      state: 'open',
      head: `${owner}:${branch}`,
      base,
    });
    return data[0];
  };
  const existing = options.newBranch ? undefined : await find();
  if (existing) {
    if (
      existing.title !== change.title ||
      (existing.body ?? '') !== change.body
    ) {
      await octokit.pulls.update({
        owner,
        repo,
        pull_number: existing.number,
        title: change.title,
        body: change.body,
      });
    }
    return { number: existing.number, url: existing.html_url };
  }
  try {
    const { data } = await octokit.pulls.create({
      owner,
      repo,
      base,
      head: branch,
      title: change.title,
      body: change.body,
    });
    return { number: data.number, url: data.html_url };
  } catch (error) {
    // 422 when a retried create had in fact succeeded: use that pull request instead of failing.
    const again = statusOf(error) === 422 ? await find() : undefined;
    if (!again) throw error;
    return { number: again.number, url: again.html_url };
  }
}

/** A pull request by number, or undefined when GitHub has none (404). */
export async function getPullRequest(session: GithubSession, number: number) {
  const { octokit, owner, repo } = session;
  session.step = `read pull request #${number}`;
  try {
    const { data } = await octokit.pulls.get({
      owner,
      repo,
      pull_number: number,
    });
    return data;
  } catch (error) {
    if (statusOf(error) === 404) return undefined;
    throw error;
  }
}

/** The number of a pull request from its web URL (`.../pull/<number>`). */
export function pullNumberOf(url: string): number | undefined {
  const match = /\/pull\/(\d+)\/?$/.exec(url);
  return match ? Number(match[1]) : undefined;
}

/**
 * Why GitHub refused a merge. `stale`: the base or the head moved, or the pull request conflicts with its
 * base; rebuilding the branch on the new head of the base can fix it. Otherwise the repository's rules
 * (required reviews, pending checks) hold it: a rebuild would not help, a human or time will.
 */
export type MergeOutcome =
  | { sha: string }
  | { sha?: undefined; refusal: string; stale: boolean; closed?: boolean };

const STALE_MESSAGE =
  /base branch was modified|head branch was modified|conflict|out of date/i;

/** The resulting commit on the base branch, or why GitHub refused to merge the pull request as it is. */
export async function mergePullRequest(
  session: GithubSession,
  pullNumber: number,
  sha: string,
  method: 'merge' | 'squash' | 'rebase',
): Promise<MergeOutcome> {
  const { octokit, owner, repo } = session;
  session.step = `merge pull request #${pullNumber}`;
  try {
    const { data } = await octokit.pulls.merge({
      owner,
      repo,
      pull_number: pullNumber,
      sha,
      merge_method: method,
    });
    return { sha: data.sha };
  } catch (error) {
    const status = statusOf(error);
    if (status !== 405 && status !== 409) throw error;
    // A retried merge that GitHub had already done answers 405: it is merged all the same.
    const { data: pull } = await octokit.pulls.get({
      owner,
      repo,
      pull_number: pullNumber,
    });
    if (pull.merged && pull.merge_commit_sha) {
      return { sha: pull.merge_commit_sha };
    }
    const message = (error as { response?: { data?: { message?: string } } })
      .response?.data?.message;
    if (pull.state === 'closed') {
      // closed by someone meanwhile: their decision, not a reason to rebuild
      return {
        refusal: `${status} ${message ?? 'closed'}`,
        stale: false,
        closed: true,
      };
    }
    // 409: the head moved. A conflict shows as `mergeable: false` (state `dirty`), a head behind a base that
    // must be up to date as `behind`; GitHub's message says the rest.
    const stale =
      status === 409 ||
      pull.mergeable === false ||
      pull.mergeable_state === 'dirty' ||
      pull.mergeable_state === 'behind' ||
      STALE_MESSAGE.test(message ?? '');
    return { refusal: `${status} ${message ?? 'not mergeable'}`, stale };
  }
}

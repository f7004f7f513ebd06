/**
 * The pull request an earlier publish left open, looked at without pushing, by its state on
 * GitHub: not this change's, merged, closed, conflicting, or open (then merged once more when
 * auto-merge is on: a review may have arrived).
 */
import type { LoggerService } from '@backstage/backend-plugin-api';
import type {
  GitopsChange,
  GitopsPublishResult,
  GitopsPullRequest,
} from '@infrared-clusters/plugin-infrared-node';
import { isBranchOfChange } from '../change';
import { getPullRequest, mergePullRequest, pullNumberOf } from './pullRequests';
import type { GithubSession } from './session';
import { finishMerged, holdsChange } from './steps';

export interface PendingOptions {
  logger?: LoggerService;
  autoMerge: boolean;
  mergeMethod: 'merge' | 'squash' | 'rebase';
}

type Pull = NonNullable<Awaited<ReturnType<typeof getPullRequest>>>;

/**
 * The result of the pending pull request, or undefined when the branch has to be (re)built: the
 * wanted files changed since, the pull request conflicts with its base, or it is not this change's
 * pull request (its own branch's, or a batch's that holds it).
 */
export async function checkPending(
  options: PendingOptions,
  session: GithubSession,
  change: GitopsChange,
  base: string,
  pending: GitopsPullRequest,
): Promise<GitopsPublishResult | undefined> {
  const number = pending.number ?? pullNumberOf(pending.url);
  const pull =
    number === undefined ? undefined : await getPullRequest(session, number);
  // a batch's pull request counts while its head holds this change (checked below)
  if (
    !pull ||
    !isBranchOfChange(pull.head.ref, change.key) ||
    pull.base.ref !== base
  ) {
    options.logger?.info(
      `gitops: the pending pull request ${pending.url} is not the one of "${change.key}" into ${base}; publishing anew`,
    );
    return undefined;
  }
  if (pull.merged) return whenMerged(options, session, change, base, pull);
  if (!(await holdsChange(session, change, pull.head.sha))) {
    // A legitimate new push: the same branch and pull request (a new one if this one was closed).
    options.logger?.info(
      `gitops: the content of "${change.key}" changed since ${pull.html_url} was opened; rebuilding it`,
    );
    return undefined;
  }
  return whenNotMerged(options, session, change, base, pull);
}

/** Merged by a human (or GitHub's own auto-merge): done, unless the wanted files changed since. */
async function whenMerged(
  { logger }: PendingOptions,
  session: GithubSession,
  change: GitopsChange,
  base: string,
  pull: Pull,
): Promise<GitopsPublishResult | undefined> {
  const head = (await session.branchHead(base)).commit;
  if (!(await holdsChange(session, change, head))) {
    logger?.info(
      `gitops: ${pull.html_url} was merged, but ${base} lacks the current content of "${change.key}"; publishing it anew`,
    );
    return undefined;
  }
  await session.deleteBranch(pull.head.ref);
  logger?.info(`gitops: ${pull.html_url} (${change.key}) was merged`);
  return {
    url: pull.html_url,
    commit: pull.merge_commit_sha ?? head,
    state: 'merged',
    merged: true,
    pullRequest: { number: pull.number, url: pull.html_url },
  };
}

/** Closed, conflicting, or open with the wanted content: merged now when auto-merge is on and GitHub lets it. */
async function whenNotMerged(
  options: PendingOptions,
  session: GithubSession,
  change: GitopsChange,
  base: string,
  pull: Pull,
): Promise<GitopsPublishResult | undefined> {
  const { logger } = options;
  const pullRequest = { number: pull.number, url: pull.html_url };
  const waiting = (state: 'open' | 'closed'): GitopsPublishResult => ({
    url: pull.html_url,
    commit: pull.head.sha,
    state,
    merged: false,
    pullRequest,
  });
  if (pull.state === 'closed') {
    logger?.info(
      `gitops: ${pull.html_url} (${change.key}) was closed without merging`,
    );
    return waiting('closed');
  }
  if (pull.mergeable === false) {
    logger?.info(
      `gitops: ${pull.html_url} conflicts with ${base}; rebuilding it on the head of ${base}`,
    );
    return undefined;
  }
  if (!options.autoMerge) return waiting('open');
  const merge = await mergePullRequest(
    session,
    pull.number,
    pull.head.sha,
    options.mergeMethod,
  );
  if (merge.sha !== undefined) {
    return finishMerged(
      session,
      logger,
      change,
      pull.head.ref,
      pullRequest,
      merge.sha,
    );
  }
  if (merge.closed) return waiting('closed');
  if (merge.stale) {
    logger?.info(
      `gitops: ${pull.html_url} cannot be merged (${merge.refusal}); rebuilding it on the new head of ${base}`,
    );
    return undefined;
  }
  // Every pass says so while it waits: debug, the caller reports the open pull request.
  logger?.debug(
    `gitops: ${pull.html_url} (${change.key}) still waits: ${merge.refusal}`,
  );
  return waiting('open');
}

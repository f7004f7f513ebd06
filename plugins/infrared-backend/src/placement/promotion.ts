import type {
  ReleaseStatus,
  ReleaseZoneStatus,
} from '@infrared-clusters/plugin-infrared-common';
import type { GitopsPublishResult } from '@infrared-clusters/plugin-infrared-node';
import { applicationState } from './argoStatus';
import { GateReasons, summarize, type ZonePromotion } from './plan';
import { canonicalJson } from '../canonicalJson';

/** The outcome of promoting a zone: the publisher's result, or why it could not publish. */
export type PromotionOutcome =
  | { result: GitopsPublishResult }
  | { error: string; invalid?: boolean };

/** The Release status once the zone's change was published (or was not). */
export function completePromotion(
  status: ReleaseStatus,
  promotion: Pick<ZonePromotion, 'zone' | 'placement'>,
  outcome: PromotionOutcome,
  now: string,
): ReleaseStatus {
  const zoneName = promotion.zone.name;
  const zones = (status.zones ?? []).map(z => {
    if (z.name !== zoneName) return z;
    const started = { startedAt: z.startedAt ?? now };
    if ('error' in outcome) {
      return {
        ...z,
        phase: outcome.invalid ? ('Failed' as const) : z.phase,
        reason: outcome.invalid
          ? GateReasons.InvalidApplication
          : GateReasons.PublishFailed,
        message: outcome.invalid
          ? outcome.error
          : `the gitops change could not be published (tried again next pass): ${outcome.error}`,
      };
    }
    const { result } = outcome;
    const pr: Partial<ReleaseZoneStatus> = {
      pullRequestURL: result.pullRequest?.url ?? result.url,
    };
    if (result.pullRequest?.number !== undefined)
      pr.pullRequest = result.pullRequest.number;
    const label = result.pullRequest?.number
      ? `pull request #${result.pullRequest.number}`
      : 'the change';
    if (result.state === 'merged') {
      return {
        ...z,
        ...started,
        ...pr,
        phase: 'Syncing' as const,
        reason: GateReasons.WaitingForArgoCD,
        // What the next pass says too, while Argo CD has not applied the file.
        message: applicationState(undefined, '', promotion.placement).message,
      };
    }
    if (result.state === 'closed') {
      return {
        ...z,
        ...started,
        ...pr,
        phase: 'Failed' as const,
        reason: GateReasons.PullRequestClosed,
        message: `${label} was closed without merging: ${pr.pullRequestURL}`,
      };
    }
    return {
      ...z,
      ...started,
      ...pr,
      phase: 'Promoting' as const,
      reason: GateReasons.PullRequestOpen,
      message: `${label} waits to be merged: ${pr.pullRequestURL}`,
    };
  });
  return { ...status, zones, ...summarize(zones) };
}

/** Whether writing `next` would change the Release's status. */
export function releaseStatusChanged(
  before: ReleaseStatus | undefined,
  next: ReleaseStatus,
): boolean {
  const pick = (s: ReleaseStatus | undefined) => ({
    phase: s?.phase,
    message: s?.message,
    zones: s?.zones ?? [],
  });
  return canonicalJson(pick(before)) !== canonicalJson(pick(next));
}

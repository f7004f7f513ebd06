/**
 * A Release's phases in words: for each phase, what it waits for and who acts next. The placement
 * card says it under each zone's phase and under the Release's; one mapping, so the words follow
 * the phases (RELEASE_PHASES, RELEASE_ZONE_PHASES) and the gate's reasons.
 */
import type { ReleasePhase, ReleaseZonePhase } from './types';

/**
 * What a phase waits for, and who acts next.
 *
 * @public
 */
export interface PhaseExplanation {
  /** What the phase waits for, in words. */
  waitsFor: string;
  /** Who acts next, and what they do. */
  next: string;
}

/**
 * A zone's phase in the Release (`status.zones[].phase`), with the reason the gate wrote where the
 * reason changes who acts next.
 *
 * @public
 */
export function explainReleaseZonePhase(
  phase: ReleaseZonePhase,
  reason?: string,
): PhaseExplanation {
  if (reason === 'PublishFailed' && phase !== 'Failed') {
    return {
      waitsFor:
        'its gitops change to be published (the last try failed; the message says why)',
      next: 'the release gate tries again on its next pass; a platform admin fixes the gitops repository if it keeps failing',
    };
  }
  switch (phase) {
    case 'Pending':
      if (reason === 'WaitingForZone') {
        return {
          waitsFor: 'the zone before it to be Healthy (zones go in order)',
          next: 'the release gate, by itself, once that zone is Healthy',
        };
      }
      if (reason === 'Registered' || reason === 'ManagementCluster') {
        return {
          waitsFor: "the release gate's next pass, which publishes its change",
          next: 'the release gate, by itself',
        };
      }
      return {
        waitsFor: 'its placement (the Decision column) to read Promotes',
        next: 'whoever can fix what the Decision says (an org admin or a platform admin); the release gate then promotes the zone by itself',
      };
    case 'AwaitingApproval':
      return {
        waitsFor:
          'a human approval: the zone is a release zone (approval human)',
        next: "an org admin of the Product's org or a platform admin clicks Approve; the release gate then promotes it",
      };
    case 'Promoting':
      return {
        waitsFor:
          "its gitops change (the zone's Application file) to be merged",
        next: 'a reviewer merges the pull request; the release gate sees the merge on its next pass',
      };
    case 'Syncing':
      return {
        waitsFor:
          "Argo CD to sync the zone's Application and report it Synced and Healthy",
        next: 'Argo CD, by itself; if it stays here, look at the Application in Argo CD',
      };
    case 'Healthy':
      return {
        waitsFor: 'nothing: Argo CD reports the Application Synced and Healthy',
        next: 'nobody for this zone; the release gate moves on to the next zone',
      };
    case 'Failed':
      if (reason === 'PullRequestClosed') {
        return {
          waitsFor:
            'nothing: its pull request was closed without merging, and this Release does not open it again',
          next: 'the Product team cuts a new Release',
        };
      }
      return {
        waitsFor:
          'nothing: the release gate stopped at this zone (the reason says why)',
        next: 'whoever can fix the reason (for a cluster not allowed, a platform admin; for the zone itself, an org admin); the release gate checks again on its next pass',
      };
    default:
      return {
        waitsFor: `an unknown phase (${String(phase)})`,
        next: 'the release gate',
      };
  }
}

/**
 * The Release's own phase (`status.phase`).
 *
 * @public
 */
export function explainReleasePhase(phase: ReleasePhase): PhaseExplanation {
  switch (phase) {
    case 'Pending':
      return {
        waitsFor: 'its build to start',
        next: "the Product's build system (not Infrared), which builds and tags the image",
      };
    case 'Building':
      return {
        waitsFor: 'its image build to finish',
        next: "the Product's build system (not Infrared)",
      };
    case 'Tagged':
      return {
        waitsFor: 'the move to Promoting: the version is built and tagged',
        next: "the Product's build system, which sets the phase to Promoting",
      };
    case 'Promoting':
      return {
        waitsFor: 'each zone, in order, to become Healthy',
        next: "the release gate, zone by zone; each zone's phase says who acts there",
      };
    case 'AwaitingApproval':
      return {
        waitsFor: 'a human approval of a release zone',
        next: "an org admin of the Product's org or a platform admin clicks Approve on that zone",
      };
    case 'Released':
      return {
        waitsFor: 'nothing: every zone is Healthy',
        next: 'nobody; the next Release starts over',
      };
    case 'Failed':
      return {
        waitsFor: 'nothing: the Release stopped (its message says why)',
        next: 'the Product team fixes the cause and cuts a new Release',
      };
    default:
      return {
        waitsFor: `an unknown phase (${String(phase)})`,
        next: 'the release gate',
      };
  }
}

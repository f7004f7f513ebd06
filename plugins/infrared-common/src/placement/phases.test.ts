import { explainReleasePhase, explainReleaseZonePhase } from './phases';
import { RELEASE_PHASES, RELEASE_ZONE_PHASES } from './types';

describe('Release phases in words', () => {
  it('says for every zone phase what it waits for and who acts next', () => {
    for (const phase of RELEASE_ZONE_PHASES) {
      const { waitsFor, next } = explainReleaseZonePhase(phase);
      expect(waitsFor).not.toMatch(/unknown/);
      expect(next.length).toBeGreaterThan(5);
    }
    expect(explainReleaseZonePhase('AwaitingApproval').next).toMatch(
      /org admin .* or a platform admin clicks Approve/,
    );
    expect(explainReleaseZonePhase('Syncing').next).toMatch(/^Argo CD/);
  });

  it("follows the gate's reason where it changes who acts next", () => {
    expect(explainReleaseZonePhase('Pending', 'WaitingForZone').waitsFor).toBe(
      'the zone before it to be Healthy (zones go in order)',
    );
    expect(explainReleaseZonePhase('Pending', 'NotRegistered').waitsFor).toBe(
      'its placement (the Decision column) to read Promotes',
    );
    expect(explainReleaseZonePhase('Pending', 'PublishFailed').next).toMatch(
      /tries again on its next pass/,
    );
    expect(explainReleaseZonePhase('Failed', 'PullRequestClosed').next).toMatch(
      /new Release/,
    );
  });

  it('says it for every Release phase', () => {
    const seen = new Set<string>();
    for (const phase of RELEASE_PHASES) {
      const { waitsFor, next } = explainReleasePhase(phase);
      expect(waitsFor).not.toMatch(/unknown/);
      expect(next.length).toBeGreaterThan(5);
      seen.add(waitsFor);
    }
    expect(seen.size).toBe(RELEASE_PHASES.length);
  });
});

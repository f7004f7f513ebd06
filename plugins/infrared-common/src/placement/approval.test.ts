import {
  APPROVABLE_ZONE_PHASE,
  approvalRefusalText,
  zoneApprovalConflict,
  zoneApprovalRefusal,
} from './approval';
import { RELEASE_ZONE_PHASES, type OrganizationResource } from './types';

const acme: OrganizationResource = {
  apiVersion: 'infrared.darkshift.io/v1alpha1',
  kind: 'Organization',
  metadata: { name: 'acme' },
  spec: {
    displayName: 'ACME',
    teams: [
      { name: 'leads', role: 'org-admin', members: ['user:default/olga'] },
      { name: 'devs', role: 'member', members: ['user:default/una'] },
      { name: 'ops', role: 'platform-admin', members: ['user:default/pat'] },
    ],
  },
};

describe('zoneApprovalRefusal: who may approve a release zone', () => {
  it("lets the org admins of the Product's org and platform admins approve", () => {
    expect(
      zoneApprovalRefusal(
        { userEntityRef: 'user:default/olga', platformAdmin: false },
        acme,
      ),
    ).toBeUndefined();
    // a bare member name is a user of the default namespace, case-insensitively
    const bare = {
      ...acme,
      spec: {
        ...acme.spec,
        teams: [{ name: 'l', role: 'org-admin' as const, members: ['Olga'] }],
      },
    };
    expect(
      zoneApprovalRefusal(
        { userEntityRef: 'user:default/olga', platformAdmin: false },
        bare,
      ),
    ).toBeUndefined();
    expect(
      zoneApprovalRefusal({ platformAdmin: true }, undefined),
    ).toBeUndefined();
    expect(
      zoneApprovalRefusal(
        { userEntityRef: 'user:default/una', platformAdmin: true },
        acme,
      ),
    ).toBeUndefined();
  });

  it('refuses members, other teams, other users and services, naming the org and the rule', () => {
    const refusal =
      'only an org admin of org acme (a member of a team with role org-admin) or a platform admin may approve a release zone';
    for (const userEntityRef of [
      'user:default/una',
      // a platform-admin team of the org is not the platform admin permission
      'user:default/pat',
      'user:default/someone',
      'user:other/olga',
      undefined,
    ]) {
      expect(
        zoneApprovalRefusal({ userEntityRef, platformAdmin: false }, acme),
      ).toBe(refusal);
    }
    expect(
      zoneApprovalRefusal(
        { userEntityRef: 'user:default/olga', platformAdmin: false },
        undefined,
      ),
    ).toBe(approvalRefusalText(undefined));
    expect(approvalRefusalText(undefined)).toMatch(/the Product's org/);
  });
});

describe('zoneApprovalConflict: which zone can be approved', () => {
  it('only a zone in phase AwaitingApproval that nobody approved yet', () => {
    expect(APPROVABLE_ZONE_PHASE).toBe('AwaitingApproval');
    expect(
      zoneApprovalConflict('checkout-v1', 'checkout-prod', {
        phase: 'AwaitingApproval',
      }),
    ).toBeUndefined();
    for (const phase of RELEASE_ZONE_PHASES.filter(
      p => p !== 'AwaitingApproval',
    )) {
      expect(
        zoneApprovalConflict('checkout-v1', 'checkout-prod', { phase }),
      ).toBe(
        `zone checkout-prod of Release checkout-v1 is in phase ${phase}: only a zone in phase AwaitingApproval can be approved`,
      );
    }
  });

  it('names who approved it already, and a zone the gate has not reached', () => {
    expect(
      zoneApprovalConflict('checkout-v1', 'checkout-prod', {
        phase: 'AwaitingApproval',
        approvedBy: 'user:default/olga',
      }),
    ).toBe(
      'zone checkout-prod of Release checkout-v1 is already approved by user:default/olga',
    );
    expect(
      zoneApprovalConflict('checkout-v1', 'checkout-prod', undefined),
    ).toMatch(/has no phase yet .*AwaitingApproval/);
  });
});

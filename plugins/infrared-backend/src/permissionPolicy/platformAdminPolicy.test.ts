import { ConfigReader } from '@backstage/config';
import { AuthorizeResult } from '@backstage/plugin-permission-common';
import {
  infraredAllowlistUpdatePermission,
  infraredClusterCreatePermission,
  infraredClusterDeletePermission,
  infraredClusterReadPermission,
} from '@infrared-clusters/plugin-infrared-common';
import {
  createInfraredPlatformAdminDecision,
  PlatformAdminPolicy,
} from './platformAdminPolicy';

function userOf(userEntityRef: string, ownershipEntityRefs: string[]) {
  return {
    identity: {
      type: 'user' as const,
      userEntityRef,
      ownershipEntityRefs,
    },
    info: { userEntityRef, ownershipEntityRefs },
    token: 'token',
    credentials: {} as any,
  };
}

const admin = userOf('user:default/ada', [
  'user:default/ada',
  'group:default/platform-admins',
]);
const developer = userOf('user:default/bob', [
  'user:default/bob',
  'group:default/team-a',
]);
const guest = userOf('user:development/guest', ['user:development/guest']);

const kubernetes = (name: string, action?: 'read') => ({
  type: 'basic' as const,
  name,
  attributes: action ? { action } : {},
});

describe('PlatformAdminPolicy', () => {
  const policy = new PlatformAdminPolicy(
    new ConfigReader({ infrared: { platformAdmins: { allowGuest: true } } }),
  );

  it.each([
    ['admin creates', infraredClusterCreatePermission, admin, 'ALLOW'],
    ['admin deletes', infraredClusterDeletePermission, admin, 'ALLOW'],
    ['developer creates', infraredClusterCreatePermission, developer, 'DENY'],
    ['developer deletes', infraredClusterDeletePermission, developer, 'DENY'],
    ['developer reads', infraredClusterReadPermission, developer, 'ALLOW'],
    [
      'admin updates an allowlist',
      infraredAllowlistUpdatePermission,
      admin,
      'ALLOW',
    ],
    [
      'developer updates an allowlist',
      infraredAllowlistUpdatePermission,
      developer,
      'DENY',
    ],
    [
      'nobody updates an allowlist',
      infraredAllowlistUpdatePermission,
      undefined,
      'DENY',
    ],
    ['local guest creates', infraredClusterCreatePermission, guest, 'ALLOW'],
    ['nobody creates', infraredClusterCreatePermission, undefined, 'DENY'],
  ])('%s -> %s', async (_name, permission, user, expected) => {
    const decision = await policy.handle({ permission }, user);
    expect(decision.result).toBe(AuthorizeResult[expected as 'ALLOW']);
  });

  it('allows permissions of other plugins', async () => {
    const decision = await policy.handle(
      {
        permission: {
          type: 'basic',
          name: 'catalog.entity.create',
          attributes: { action: 'create' },
        },
      },
      developer,
    );
    expect(decision.result).toBe(AuthorizeResult.ALLOW);
  });

  it.each([
    ['admin', 'ALLOW', admin],
    ['local guest (allowGuest)', 'ALLOW', guest],
    ['developer', 'DENY', developer],
    ['nobody', 'DENY', undefined],
  ])(
    'kubernetes.proxy (any request to a cluster): %s -> %s',
    async (_name, expected, user) => {
      const decision = await policy.handle(
        { permission: kubernetes('kubernetes.proxy') },
        user,
      );
      expect(decision.result).toBe(AuthorizeResult[expected as 'ALLOW']);
    },
  );

  it("keeps the Kubernetes tab's reads for every signed-in user", async () => {
    for (const name of [
      'kubernetes.clusters.read',
      'kubernetes.resources.read',
    ]) {
      const decision = await policy.handle(
        { permission: kubernetes(name, 'read') },
        developer,
      );
      expect([name, decision.result]).toEqual([name, AuthorizeResult.ALLOW]);
    }
  });

  it('does not treat the guest as an admin unless configured', async () => {
    const strict = new PlatformAdminPolicy(new ConfigReader({}));
    const decision = await strict.handle(
      { permission: infraredClusterCreatePermission },
      guest,
    );
    expect(decision.result).toBe(AuthorizeResult.DENY);
  });

  it('takes the admin groups from config', async () => {
    const custom = new PlatformAdminPolicy(
      new ConfigReader({
        infrared: { platformAdmins: { groups: ['group:default/team-a'] } },
      }),
    );
    expect(
      (
        await custom.handle(
          { permission: infraredClusterCreatePermission },
          developer,
        )
      ).result,
    ).toBe(AuthorizeResult.ALLOW);
    expect(
      (
        await custom.handle(
          { permission: infraredClusterCreatePermission },
          admin,
        )
      ).result,
    ).toBe(AuthorizeResult.DENY);
  });
});

describe('createInfraredPlatformAdminDecision', () => {
  const decide = createInfraredPlatformAdminDecision(new ConfigReader({}));

  it('decides Infrared permissions and the Kubernetes proxy', () => {
    expect(
      decide({ permission: infraredClusterCreatePermission }, admin),
    ).toEqual({ result: AuthorizeResult.ALLOW });
    expect(
      decide({ permission: infraredClusterDeletePermission }, developer),
    ).toEqual({ result: AuthorizeResult.DENY });
    expect(
      decide({ permission: infraredClusterReadPermission }, developer),
    ).toEqual({ result: AuthorizeResult.ALLOW });
    expect(
      decide({ permission: kubernetes('kubernetes.proxy') }, developer),
    ).toEqual({ result: AuthorizeResult.DENY });
  });

  it('leaves every other permission to the rest of the policy', () => {
    for (const permission of [
      kubernetes('kubernetes.clusters.read', 'read'),
      {
        type: 'basic' as const,
        name: 'catalog.entity.delete',
        attributes: { action: 'delete' as const },
      },
    ]) {
      expect(decide({ permission }, admin)).toBeUndefined();
      expect(decide({ permission }, undefined)).toBeUndefined();
    }
  });
});

import {
  findOrgOfNamespace,
  isOrgAdmin,
  memberMatchesUser,
  orgAllowlist,
  orgStatusNamespace,
} from './org';
import type { OrganizationResource } from './types';

const org = (
  name: string,
  spec: Partial<OrganizationResource['spec']> = {},
  namespace?: string,
): OrganizationResource => ({
  apiVersion: 'infrared.darkshift.io/v1alpha1',
  kind: 'Organization',
  metadata: { name },
  spec: { displayName: name, ...spec },
  ...(namespace ? { status: { namespace } } : {}),
});

describe('the org of a Product', () => {
  const orgs = [
    org('acme', {}, 'ir-org-acme'),
    org('globex'),
    org('initech', {}, 'custom-ns'),
  ];
  it.each([
    ['ir-org-acme', 'acme'],
    ['ir-org-globex', 'globex'],
    ['custom-ns', 'initech'],
    ['ir-org-initech', undefined],
    ['default', undefined],
  ])('namespace %s -> %s', (namespace, expected) => {
    expect(findOrgOfNamespace(orgs, namespace)?.metadata.name).toBe(expected);
  });

  it('status.namespace wins over the default', () => {
    expect(orgStatusNamespace(orgs[2])).toBe('custom-ns');
    expect(orgStatusNamespace(orgs[1])).toBe('ir-org-globex');
  });

  it('reads the allowlist sorted, without blanks or repeats', () => {
    expect(
      orgAllowlist(org('a', { clusterAllowlist: ['b', '', 'a', 'b'] })),
    ).toEqual(['a', 'b']);
    expect(orgAllowlist(org('a'))).toEqual([]);
  });
});

describe('org admins', () => {
  const acme = org('acme', {
    teams: [
      {
        name: 'leads',
        role: 'org-admin',
        members: ['ada', 'user:default/grace'],
      },
      { name: 'devs', role: 'member', members: ['bob'] },
    ],
  });
  it.each([
    ['user:default/ada', true],
    ['user:default/Grace', true],
    ['user:default/bob', false],
    ['user:other/ada', false],
    [undefined, false],
  ])('%s -> %s', (ref, expected) => {
    expect(isOrgAdmin(acme, ref)).toBe(expected);
  });

  it('matches members by entity ref or bare name', () => {
    expect(memberMatchesUser('ADA', 'user:default/ada')).toBe(true);
    expect(memberMatchesUser('group:default/x', 'user:default/x')).toBe(false);
    expect(memberMatchesUser(' ', 'user:default/x')).toBe(false);
  });
});

/** Which Organization a Product belongs to, and who administers an Organization. */
import type { OrganizationResource } from './types';

/**
 * The namespace Infrared gives an org: `ir-org-<org>`.
 *
 * @public
 */
export function orgNamespace(orgName: string): string {
  return `ir-org-${orgName}`;
}

/**
 * The namespace holding an org's resources: `status.namespace`, or `ir-org-<name>` until it is set.
 *
 * @public
 */
export function orgStatusNamespace(org: OrganizationResource): string {
  return org.status?.namespace || orgNamespace(org.metadata.name);
}

/**
 * The org of a Product: the Organization whose status namespace holds it. Undefined when no
 * Organization claims the namespace.
 *
 * @public
 */
export function findOrgOfNamespace<T extends OrganizationResource>(
  orgs: readonly T[],
  namespace: string,
): T | undefined {
  return orgs.find(org => orgStatusNamespace(org) === namespace);
}

/**
 * An org's cluster allowlist, without blanks or repeats, sorted.
 *
 * @public
 */
export function orgAllowlist(
  org: Pick<OrganizationResource, 'spec'>,
): string[] {
  return [...new Set((org.spec.clusterAllowlist ?? []).filter(Boolean))].sort();
}

/**
 * Whether a team member entry names a Backstage user: the entry is the user's entity ref
 * (`user:default/ada`), or the bare name of a user in the default namespace (`ada`, as the CRD's
 * GitHub logins are usually ingested). Case-insensitive, as Backstage compares entity refs.
 *
 * @public
 */
export function memberMatchesUser(
  member: string,
  userEntityRef: string,
): boolean {
  const ref = userEntityRef.toLocaleLowerCase('en-US');
  const entry = member.trim().toLocaleLowerCase('en-US');
  if (!entry) return false;
  if (entry === ref) return true;
  return !entry.includes(':') && !entry.includes('/')
    ? ref === `user:default/${entry}`
    : false;
}

/**
 * Whether a user is an org admin: a member of one of the org's teams with role `org-admin`.
 *
 * @public
 */
export function isOrgAdmin(
  org: Pick<OrganizationResource, 'spec'>,
  userEntityRef: string | undefined,
): boolean {
  if (!userEntityRef) return false;
  return (org.spec.teams ?? []).some(
    team =>
      team.role === 'org-admin' &&
      (team.members ?? []).some(m => memberMatchesUser(m, userEntityRef)),
  );
}

/**
 * Approving a release zone: who may, which zone can be, and the words for each refusal. The API
 * (POST /v1/products/\{namespace\}/\{name\}/releases/\{release\}/zones/\{zone\}/approval) and the
 * Product card both use these, so a button the card enables is one the API accepts.
 */
import type { ReleaseZoneApproval as ReleaseZoneApprovalBody } from '../schema/openapi';
import { isOrgAdmin } from './org';
import type {
  OrganizationResource,
  ReleaseZonePhase,
  ReleaseZoneStatus,
} from './types';

/**
 * Body of the approval's answer: the zone's approval as written.
 *
 * @public
 */
export type ReleaseZoneApprovalView = ReleaseZoneApprovalBody;

/**
 * The one zone phase an approval applies to: the release gate keeps a zone with `approval: human`
 * there until `status.zones[].approvedBy` is set.
 *
 * @public
 */
export const APPROVABLE_ZONE_PHASE: ReleaseZonePhase = 'AwaitingApproval';

/**
 * Who asks to approve: a user (their entity ref) and whether they are a platform admin.
 *
 * @public
 */
export interface ZoneApprover {
  userEntityRef?: string;
  platformAdmin: boolean;
}

/**
 * Why a caller may not approve the zones of a Product of `org` (undefined: they may). Platform
 * admins may; so may the org admins of the Product's org (members of a team with role org-admin).
 *
 * @public
 */
export function zoneApprovalRefusal(
  caller: ZoneApprover,
  org: Pick<OrganizationResource, 'spec' | 'metadata'> | undefined,
): string | undefined {
  if (caller.platformAdmin) return undefined;
  if (org && isOrgAdmin(org, caller.userEntityRef)) return undefined;
  return approvalRefusalText(org?.metadata.name);
}

/**
 * The refusal's words, for an org by name (undefined: the Product's namespace has no org).
 *
 * @public
 */
export function approvalRefusalText(org: string | undefined): string {
  return `only an org admin of ${
    org ? `org ${org}` : "the Product's org"
  } (a member of a team with role org-admin) or a platform admin may approve a release zone`;
}

/**
 * Why a Release's zone cannot be approved now (undefined: it can): it is not AwaitingApproval (the
 * words name its phase), or someone approved it already.
 *
 * @public
 */
export function zoneApprovalConflict(
  release: string,
  zone: string,
  status: Pick<ReleaseZoneStatus, 'phase' | 'approvedBy'> | undefined,
): string | undefined {
  const where = `zone ${zone} of Release ${release}`;
  if (!status) {
    return `${where} has no phase yet (the release gate has not reached it): only a zone in phase ${APPROVABLE_ZONE_PHASE} can be approved`;
  }
  if (status.phase !== APPROVABLE_ZONE_PHASE) {
    return `${where} is in phase ${status.phase}: only a zone in phase ${APPROVABLE_ZONE_PHASE} can be approved`;
  }
  if (status.approvedBy) {
    return `${where} is already approved by ${status.approvedBy}`;
  }
  return undefined;
}

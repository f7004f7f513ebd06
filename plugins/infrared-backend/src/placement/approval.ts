/**
 * Approving a release zone: the org admins of the Product's org and platform admins set
 * `status.zones[].approvedBy` (and `approvedAt`) of a zone the release gate keeps AwaitingApproval;
 * the gate's next pass promotes it. The rules and their words are -common's (placement/approval).
 */
import {
  ConflictError,
  NotAllowedError,
  NotFoundError,
} from '@backstage/errors';
import {
  findOrgOfNamespace,
  zoneApprovalConflict,
  zoneApprovalRefusal,
  type ReleaseZoneApprovalView,
} from '@infrared-clusters/plugin-infrared-common';
import {
  retryOnConflict,
  type PlacementKubeApi,
} from '@infrared-clusters/infrared-kube';
import type { PlacementCaller } from './service';

export interface ApproveZoneRequest {
  namespace: string;
  /** The Product. */
  name: string;
  release: string;
  zone: string;
}

export interface ApprovalDeps {
  kube: PlacementKubeApi;
  /** Called after the write (starts a release gate pass). */
  onChange?: () => void;
  /** ISO time of the approval; now by default. */
  now?: () => string;
}

/** Who the approval names: the user's entity ref, or a service's subject. */
function approver(caller: PlacementCaller): string {
  return caller.userEntityRef ?? caller.service ?? 'unknown';
}

/**
 * Approves one zone of a Release. 403 before anything is read of the Release when the caller may
 * not approve; 404 for an unknown Product, a Release of another Product, or a zone neither has;
 * 409 naming the zone's phase when it is not awaiting approval (or is approved already). The
 * status is written through the status subresource at the Release's resourceVersion; on a
 * conflict (the gate wrote meanwhile) it is read and checked again.
 */
export async function approveReleaseZone(
  deps: ApprovalDeps,
  request: ApproveZoneRequest,
  caller: PlacementCaller,
): Promise<ReleaseZoneApprovalView> {
  const { kube } = deps;
  const { namespace, name, release, zone } = request;
  const org = findOrgOfNamespace(await kube.listOrganizations(), namespace);
  const refusal = zoneApprovalRefusal(caller, org);
  if (refusal) throw new NotAllowedError(refusal);

  const approval = await retryOnConflict(async () => {
    const [product, releases] = await Promise.all([
      kube.getProduct(namespace, name),
      kube.listReleases(namespace),
    ]);
    if (!product) {
      throw new NotFoundError(`Product ${namespace}/${name} not found`);
    }
    const found = releases.find(
      r => r.metadata.name === release && r.spec?.productRef?.name === name,
    );
    if (!found) {
      throw new NotFoundError(
        `Release ${namespace}/${release} of Product ${name} not found`,
      );
    }
    const zones = found.status?.zones ?? [];
    const index = zones.findIndex(z => z.name === zone);
    const productZones = (product.spec.delivery?.zones ?? []).map(z => z.name);
    if (index < 0 && !productZones.includes(zone)) {
      throw new NotFoundError(
        `Product ${namespace}/${name} has no zone ${zone} (zones: ${
          productZones.join(', ') || 'none'
        })`,
      );
    }
    const conflict = zoneApprovalConflict(release, zone, zones[index]);
    if (conflict) throw new ConflictError(conflict);

    const view: ReleaseZoneApprovalView = {
      release,
      zone,
      phase: zones[index].phase,
      approvedBy: approver(caller),
      approvedAt: (deps.now ?? (() => new Date().toISOString()))(),
    };
    const next = zones.map((z, i) =>
      i === index
        ? { ...z, approvedBy: view.approvedBy, approvedAt: view.approvedAt }
        : z,
    );
    if (!found.metadata.resourceVersion) {
      throw new ConflictError(
        `Release ${namespace}/${release} has no resourceVersion`,
      );
    }
    await kube.patchReleaseStatus(
      namespace,
      release,
      { zones: next },
      found.metadata.resourceVersion,
    );
    return view;
  });
  deps.onChange?.();
  return approval;
}

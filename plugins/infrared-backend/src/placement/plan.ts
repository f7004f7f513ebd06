/**
 * The release gate's planner: pure. For one Release that is promoting, it decides each zone's phase
 * from what the executor read (Products, Organizations, Clusters, Argo CD's AppProjects and
 * Applications) and names at most one zone to promote: the first zone that is not Healthy, when
 * every earlier zone is Healthy and its placement decision is Promotes.
 */
import {
  decideZonePlacement,
  findOrgOfNamespace,
  orgAllowlist,
  zoneClaimKey,
  type ProductResource,
  type ProductZone,
  type ReleasePhase,
  type ReleaseResource,
  type ReleaseStatus,
  type ReleaseZoneStatus,
} from '@infrared-clusters/plugin-infrared-common';
import { zoneStep, type GateWorld, type ZonePromotion } from './zoneStep';

export { applicationState } from './argoStatus';
export { GateReasons, type GateWorld, type ZonePromotion } from './zoneStep';

/** Release phases the gate evaluates; the build and tag phases before them are not its business. */
export const GATED_RELEASE_PHASES: readonly ReleasePhase[] = [
  'Promoting',
  'AwaitingApproval',
];

export interface ReleasePlan {
  release: ReleaseResource;
  product?: ProductResource;
  /** The status to have, before `promote` completes. */
  status: ReleaseStatus;
  promote?: ZonePromotion;
}

/** `<namespace>/<name>` of a Release, as zone Applications record it. */
export function releaseRef(release: ReleaseResource): string {
  return `${release.metadata.namespace}/${release.metadata.name}`;
}

/** Whether the gate evaluates a Release. */
export function isGated(release: ReleaseResource): boolean {
  return GATED_RELEASE_PHASES.includes(release.status?.phase as ReleasePhase);
}

/** The Release's phase and message from its zones. */
export function summarize(
  zones: ReleaseZoneStatus[],
): Pick<ReleaseStatus, 'phase' | 'message'> {
  const next = zones.find(z => z.phase !== 'Healthy');
  if (!next) {
    return { phase: 'Released', message: 'every zone is Healthy' };
  }
  return {
    phase: next.phase === 'AwaitingApproval' ? 'AwaitingApproval' : 'Promoting',
    message: `zone ${next.name} is ${next.phase}: ${next.message ?? ''}`.trim(),
  };
}

/** The Release's Product with its zones, or the plan that fails the Release for want of them. */
function releaseProduct(
  release: ReleaseResource,
  world: GateWorld,
):
  | { product: ProductResource; zones: ProductZone[] }
  | { failed: ReleasePlan } {
  const current = release.status ?? {};
  const namespace = release.metadata.namespace ?? '';
  const productName = release.spec?.productRef?.name ?? '';
  const product = world.products.get(`${namespace}/${productName}`);
  if (!product) {
    return {
      failed: {
        release,
        status: {
          ...current,
          phase: 'Failed',
          message: `Product ${namespace}/${productName} not found: a Release ships a Product of its own namespace`,
        },
      },
    };
  }
  const zones = product.spec.delivery?.zones ?? [];
  if (!zones.length) {
    return {
      failed: {
        release,
        product,
        status: {
          ...current,
          phase: 'Failed',
          message: `Product ${namespace}/${productName} has no delivery zones (spec.delivery.zones)`,
        },
      },
    };
  }
  return { product, zones };
}

/** Plans one Release (see the module comment). */
export function planRelease(
  release: ReleaseResource,
  world: GateWorld,
): ReleasePlan {
  const found = releaseProduct(release, world);
  if ('failed' in found) return found.failed;
  const { product, zones } = found;
  const current = release.status ?? {};
  const namespace = release.metadata.namespace ?? '';
  const org = findOrgOfNamespace(world.orgs, namespace);
  const allowlist = org
    ? { name: org.metadata.name, clusterAllowlist: orgAllowlist(org) }
    : undefined;
  const appProject = world.appProjects.get(world.project) ?? null;
  const prior = new Map((current.zones ?? []).map(z => [z.name, z]));
  const ref = releaseRef(release);

  const out: ReleaseZoneStatus[] = [];
  let promote: ZonePromotion | undefined;
  let blockedBy: string | undefined;
  for (const zone of zones) {
    const placement = decideZonePlacement({
      zone,
      productNamespace: namespace,
      org: allowlist,
      cluster: zone.cluster ? world.clusters.get(zone.cluster) : undefined,
      managementCluster: world.managementCluster,
      project: world.project,
      appProject,
      collision: world.collisions?.get(zoneClaimKey(product, zone)),
    });
    const step = zoneStep(zone, prior.get(zone.name), placement, {
      world,
      ref,
      blockedBy,
      promoting: !!promote,
    });
    if (step.promote) promote = step.promote;
    out.push(step.status);
    if (step.status.phase !== 'Healthy' && !blockedBy) blockedBy = zone.name;
  }

  const next: ReleaseStatus = { ...current, zones: out };
  Object.assign(next, summarize(out));
  return { release, product, status: next, promote };
}

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
  zoneApproval,
  zoneClaimKey,
  zoneEnvironment,
  type AppProjectFacts,
  type OrganizationResource,
  type PlacementClusterFacts,
  type ProductResource,
  type ProductZone,
  type ReleasePhase,
  type ReleaseResource,
  type ReleaseStatus,
  type ReleaseZoneStatus,
  type ZoneCollision,
  type ZonePlacement,
} from '@infrared-clusters/plugin-infrared-common';
import type { ArgoObject } from '@infrared-clusters/infrared-kube';
import type { GitopsPullRequest } from '@infrared-clusters/plugin-infrared-node';
import { applicationState } from './argoStatus';

export { applicationState } from './argoStatus';

/** Release phases the gate evaluates; the build and tag phases before them are not its business. */
export const GATED_RELEASE_PHASES: readonly ReleasePhase[] = [
  'Promoting',
  'AwaitingApproval',
];

/** Reasons the gate writes beside the placement decision's own. */
export const GateReasons = {
  WaitingForZone: 'WaitingForZone',
  ApprovalRequired: 'ApprovalRequired',
  PullRequestOpen: 'PullRequestOpen',
  PullRequestClosed: 'PullRequestClosed',
  PublishFailed: 'PublishFailed',
  InvalidApplication: 'InvalidApplication',
  WaitingForArgoCD: 'WaitingForArgoCD',
  Healthy: 'Healthy',
} as const;

/** What the executor read for one gate pass. */
export interface GateWorld {
  /** Products by `<namespace>/<name>`. */
  products: ReadonlyMap<string, ProductResource>;
  orgs: readonly OrganizationResource[];
  /** Clusters by name. */
  clusters: ReadonlyMap<string, PlacementClusterFacts>;
  /** AppProjects in namespace argocd, by name. */
  appProjects: ReadonlyMap<string, AppProjectFacts>;
  /** Zone Applications in namespace argocd, by name. */
  applications: ReadonlyMap<string, ArgoObject>;
  managementCluster: string;
  /** The AppProject of zone Applications. */
  project: string;
  /** ISO time for startedAt and healthyAt. */
  now: string;
  /** Zones another Product keeps the name or Application file of (zoneCollisions), by zoneClaimKey. */
  collisions?: ReadonlyMap<string, ZoneCollision>;
}

/** The zone to promote in this pass. */
export interface ZonePromotion {
  zone: ProductZone;
  placement: ZonePlacement;
  /** The pull request an earlier pass left open: checked, not opened again. */
  pending?: GitopsPullRequest;
}

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

function entry(
  zone: ProductZone,
  prior: ReleaseZoneStatus | undefined,
  phase: ReleaseZoneStatus['phase'],
  reason: string,
  message: string,
  extra: Partial<ReleaseZoneStatus> = {},
): ReleaseZoneStatus {
  const status: ReleaseZoneStatus = {
    name: zone.name,
    phase,
    reason,
    message,
    environment: zoneEnvironment(zone),
    approval: zoneApproval(zone),
  };
  // What a phase earns stays: the pull request, when it started, who approved it.
  for (const key of [
    'pullRequest',
    'pullRequestURL',
    'startedAt',
    'healthyAt',
    'approvedBy',
    'approvedAt',
  ] as const) {
    if (prior?.[key] !== undefined) (status as any)[key] = prior[key];
  }
  return { ...status, ...extra };
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

/** What a zone's step decides: its status, and whether it is the zone to promote. */
interface ZoneStep {
  status: ReleaseZoneStatus;
  promote?: ZonePromotion;
}

/** Where the walk over the zones stands when it comes to one. */
interface ZoneWalk {
  world: GateWorld;
  ref: string;
  /** The first zone before this one that is not Healthy. */
  blockedBy?: string;
  /** A zone before this one is to be promoted. */
  promoting: boolean;
}

/** A zone already on its way: Healthy stays, Syncing follows Argo CD, an open change is checked again. */
function zoneUnderway(
  zone: ProductZone,
  before: ReleaseZoneStatus | undefined,
  placement: ZonePlacement,
  walk: ZoneWalk,
): ZoneStep | undefined {
  if (before?.phase === 'Healthy') {
    return {
      status: entry(
        zone,
        before,
        'Healthy',
        before.reason ?? GateReasons.Healthy,
        before.message ?? '',
      ),
    };
  }
  if (before?.phase === 'Syncing') {
    const state = applicationState(
      walk.world.applications.get(placement.applicationName),
      walk.ref,
      placement,
    );
    return {
      status: state.healthy
        ? entry(zone, before, 'Healthy', GateReasons.Healthy, state.message, {
            healthyAt: walk.world.now,
          })
        : entry(
            zone,
            before,
            'Syncing',
            GateReasons.WaitingForArgoCD,
            state.message,
          ),
    };
  }
  if (before?.phase === 'Promoting' && before.pullRequestURL) {
    // The change is out for review: check its pull request again, whatever the decision now.
    const status = entry(
      zone,
      before,
      'Promoting',
      before.reason ?? GateReasons.PullRequestOpen,
      before.message ?? '',
    );
    if (walk.blockedBy || walk.promoting) return { status };
    const pending = { number: before.pullRequest, url: before.pullRequestURL };
    return { status, promote: { zone, placement, pending } };
  }
  if (
    before?.phase === 'Failed' &&
    before.reason === GateReasons.PullRequestClosed
  ) {
    // A human closed the change: not opened again for this Release.
    return {
      status: entry(
        zone,
        before,
        'Failed',
        before.reason,
        before.message ?? '',
      ),
    };
  }
  return undefined;
}

/** One zone's phase from its last one and its placement decision (see the module comment). */
function zoneStep(
  zone: ProductZone,
  before: ReleaseZoneStatus | undefined,
  placement: ZonePlacement,
  walk: ZoneWalk,
): ZoneStep {
  const underway = zoneUnderway(zone, before, placement, walk);
  if (underway) return underway;
  const at = (
    phase: ReleaseZoneStatus['phase'],
    reason: string,
    message: string,
  ) => entry(zone, before, phase, reason, message);
  if (placement.decision === 'Fails') {
    return { status: at('Failed', placement.reason, placement.message) };
  }
  if (walk.blockedBy) {
    return {
      status: at(
        'Pending',
        GateReasons.WaitingForZone,
        `waits for zone ${walk.blockedBy} to be Healthy`,
      ),
    };
  }
  if (placement.decision === 'Waits') {
    return { status: at('Pending', placement.reason, placement.message) };
  }
  if (zoneApproval(zone) === 'human' && !before?.approvedBy) {
    return {
      status: at(
        'AwaitingApproval',
        GateReasons.ApprovalRequired,
        `zone ${zone.name} needs a human approval (status.zones[].approvedBy) before it is promoted; ${placement.message}`,
      ),
    };
  }
  return {
    status: at('Pending', placement.reason, placement.message),
    promote: { zone, placement },
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

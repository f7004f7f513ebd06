/**
 * One zone's step in the release gate's plan, pure: its phase from its last one and its placement
 * decision, and whether it is the zone to promote in this pass (see plan.ts's module comment).
 */
import {
  zoneApproval,
  zoneEnvironment,
  type AppProjectFacts,
  type OrganizationResource,
  type PlacementClusterFacts,
  type ProductResource,
  type ProductZone,
  type ReleaseZoneStatus,
  type ZoneCollision,
  type ZonePlacement,
} from '@infrared-clusters/plugin-infrared-common';
import type { ArgoObject } from '@infrared-clusters/infrared-kube';
import type { GitopsPullRequest } from '@infrared-clusters/plugin-infrared-node';
import { applicationState } from './argoStatus';

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

/** The zone's status with what its earlier phases earned, kept. */
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

/** What a zone's step decides: its status, and whether it is the zone to promote. */
interface ZoneStep {
  status: ReleaseZoneStatus;
  promote?: ZonePromotion;
}

/** Where the walk over the zones stands when it comes to one. */
export interface ZoneWalk {
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

/** One zone's phase from its last one and its placement decision (see plan.ts's module comment). */
export function zoneStep(
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

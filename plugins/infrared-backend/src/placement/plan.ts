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
  type ZonePlacement,
} from '@infrared-clusters/plugin-infrared-common';
import type {
  ArgoObject,
  GitopsPublishResult,
  GitopsPullRequest,
} from '@infrared-clusters/plugin-infrared-node';
import { RELEASE_ANNOTATION } from './application';

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

/**
 * Whether the zone's Application runs this Release and Argo CD reports it Synced and Healthy, read
 * from the Application's status as Argo CD writes it (status.sync.status, status.health.status).
 */
export function applicationState(
  app: ArgoObject | undefined,
  ref: string,
  placement: Pick<ZonePlacement, 'applicationName' | 'applicationPath'>,
): { healthy: boolean; message: string } {
  const name = placement.applicationName;
  if (!app) {
    return {
      healthy: false,
      message: `waiting for Argo CD to create Application ${name} in namespace argocd from ${placement.applicationPath}`,
    };
  }
  const runs = app.metadata.annotations?.[RELEASE_ANNOTATION];
  if (runs !== ref) {
    return {
      healthy: false,
      message: `Application ${name} is still at ${
        runs ? `release ${runs}` : 'another revision'
      }; waiting for Argo CD to sync the change`,
    };
  }
  const sync = app.status?.sync?.status ?? 'Unknown';
  const health = app.status?.health?.status ?? 'Unknown';
  if (sync === 'Synced' && health === 'Healthy') {
    return {
      healthy: true,
      message: `Application ${name} is Synced and Healthy`,
    };
  }
  const detail = app.status?.health?.message
    ? `: ${app.status.health.message}`
    : '';
  return {
    healthy: false,
    message: `Argo CD reports Application ${name} ${sync} and ${health}${detail}`,
  };
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

/** Plans one Release (see the module comment). */
export function planRelease(
  release: ReleaseResource,
  world: GateWorld,
): ReleasePlan {
  const current = release.status ?? {};
  const namespace = release.metadata.namespace ?? '';
  const productName = release.spec?.productRef?.name ?? '';
  const product = world.products.get(`${namespace}/${productName}`);
  if (!product) {
    return {
      release,
      status: {
        ...current,
        phase: 'Failed',
        message: `Product ${namespace}/${productName} not found: a Release ships a Product of its own namespace`,
      },
    };
  }
  const zones = product.spec.delivery?.zones ?? [];
  if (!zones.length) {
    return {
      release,
      product,
      status: {
        ...current,
        phase: 'Failed',
        message: `Product ${namespace}/${productName} has no delivery zones (spec.delivery.zones)`,
      },
    };
  }

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
    const before = prior.get(zone.name);
    const placement = decideZonePlacement({
      zone,
      productNamespace: namespace,
      org: allowlist,
      cluster: zone.cluster ? world.clusters.get(zone.cluster) : undefined,
      managementCluster: world.managementCluster,
      project: world.project,
      appProject,
    });
    let status: ReleaseZoneStatus;

    if (before?.phase === 'Healthy') {
      status = entry(
        zone,
        before,
        'Healthy',
        before.reason ?? GateReasons.Healthy,
        before.message ?? '',
      );
    } else if (before?.phase === 'Syncing') {
      const state = applicationState(
        world.applications.get(placement.applicationName),
        ref,
        placement,
      );
      status = state.healthy
        ? entry(zone, before, 'Healthy', GateReasons.Healthy, state.message, {
            healthyAt: world.now,
          })
        : entry(
            zone,
            before,
            'Syncing',
            GateReasons.WaitingForArgoCD,
            state.message,
          );
    } else if (before?.phase === 'Promoting' && before.pullRequestURL) {
      // The change is out for review: check its pull request again, whatever the decision now.
      status = entry(
        zone,
        before,
        'Promoting',
        before.reason ?? GateReasons.PullRequestOpen,
        before.message ?? '',
      );
      if (!blockedBy && !promote) {
        promote = {
          zone,
          placement,
          pending: { number: before.pullRequest, url: before.pullRequestURL },
        };
      }
    } else if (
      before?.phase === 'Failed' &&
      before.reason === GateReasons.PullRequestClosed
    ) {
      // A human closed the change: not opened again for this Release.
      status = entry(
        zone,
        before,
        'Failed',
        before.reason,
        before.message ?? '',
      );
    } else if (placement.decision === 'Fails') {
      status = entry(
        zone,
        before,
        'Failed',
        placement.reason,
        placement.message,
      );
    } else if (blockedBy) {
      status = entry(
        zone,
        before,
        'Pending',
        GateReasons.WaitingForZone,
        `waits for zone ${blockedBy} to be Healthy`,
      );
    } else if (placement.decision === 'Waits') {
      status = entry(
        zone,
        before,
        'Pending',
        placement.reason,
        placement.message,
      );
    } else if (zoneApproval(zone) === 'human' && !before?.approvedBy) {
      status = entry(
        zone,
        before,
        'AwaitingApproval',
        GateReasons.ApprovalRequired,
        `zone ${zone.name} needs a human approval (status.zones[].approvedBy) before it is promoted; ${placement.message}`,
      );
    } else {
      status = entry(
        zone,
        before,
        'Pending',
        placement.reason,
        placement.message,
      );
      promote = { zone, placement };
    }
    out.push(status);
    if (status.phase !== 'Healthy' && !blockedBy) blockedBy = zone.name;
  }

  const next: ReleaseStatus = { ...current, zones: out };
  Object.assign(next, summarize(out));
  return { release, product, status: next, promote };
}

/** The outcome of promoting a zone: the publisher's result, or why it could not publish. */
export type PromotionOutcome =
  | { result: GitopsPublishResult }
  | { error: string; invalid?: boolean };

/** The Release status once the zone's change was published (or was not). */
export function completePromotion(
  status: ReleaseStatus,
  promotion: Pick<ZonePromotion, 'zone' | 'placement'>,
  outcome: PromotionOutcome,
  now: string,
): ReleaseStatus {
  const zoneName = promotion.zone.name;
  const zones = (status.zones ?? []).map(z => {
    if (z.name !== zoneName) return z;
    const started = { startedAt: z.startedAt ?? now };
    if ('error' in outcome) {
      return {
        ...z,
        phase: outcome.invalid ? ('Failed' as const) : z.phase,
        reason: outcome.invalid
          ? GateReasons.InvalidApplication
          : GateReasons.PublishFailed,
        message: outcome.invalid
          ? outcome.error
          : `the gitops change could not be published (tried again next pass): ${outcome.error}`,
      };
    }
    const { result } = outcome;
    const pr: Partial<ReleaseZoneStatus> = {
      pullRequestURL: result.pullRequest?.url ?? result.url,
    };
    if (result.pullRequest?.number !== undefined)
      pr.pullRequest = result.pullRequest.number;
    const label = result.pullRequest?.number
      ? `pull request #${result.pullRequest.number}`
      : 'the change';
    if (result.state === 'merged') {
      return {
        ...z,
        ...started,
        ...pr,
        phase: 'Syncing' as const,
        reason: GateReasons.WaitingForArgoCD,
        // What the next pass says too, while Argo CD has not applied the file.
        message: applicationState(undefined, '', promotion.placement).message,
      };
    }
    if (result.state === 'closed') {
      return {
        ...z,
        ...started,
        ...pr,
        phase: 'Failed' as const,
        reason: GateReasons.PullRequestClosed,
        message: `${label} was closed without merging: ${pr.pullRequestURL}`,
      };
    }
    return {
      ...z,
      ...started,
      ...pr,
      phase: 'Promoting' as const,
      reason: GateReasons.PullRequestOpen,
      message: `${label} waits to be merged: ${pr.pullRequestURL}`,
    };
  });
  return { ...status, zones, ...summarize(zones) };
}

function canonical(value: unknown): string {
  return JSON.stringify(value, (_k, v) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(
          Object.entries(v).sort(([a], [b]) => a.localeCompare(b)),
        )
      : v,
  );
}

/** Whether writing `next` would change the Release's status. */
export function releaseStatusChanged(
  before: ReleaseStatus | undefined,
  next: ReleaseStatus,
): boolean {
  const pick = (s: ReleaseStatus | undefined) => ({
    phase: s?.phase,
    message: s?.message,
    zones: s?.zones ?? [],
  });
  return canonical(pick(before)) !== canonical(pick(next));
}

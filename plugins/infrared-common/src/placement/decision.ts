/**
 * The placement decision for one zone of a Product: whether a Release may promote to it now (Promotes),
 * must wait and check again (Waits), or cannot (Fails). Pure: the gate, the API and the card share it.
 */
import { IN_CLUSTER_SERVER } from '../clusters/names';
import {
  appProjectPermits,
  appProjectPermitsClusterResource,
  type AppProjectFacts,
  type ArgoDestination,
} from './appProject';
import {
  applicationPathProblem,
  zoneApplicationName,
  zoneApplicationPath,
  zoneNameProblem,
  zoneTargetCluster,
} from './paths';
import { zoneCollisionMessage, type ZoneCollision } from './claims';
import type { ProductZone } from './types';

/** @public */
export const PLACEMENT_DECISIONS = ['Promotes', 'Waits', 'Fails'] as const;
/** @public */
export type PlacementDecision = (typeof PLACEMENT_DECISIONS)[number];

/**
 * Why a zone got its decision: a stable code the UI and the Release status carry.
 *
 * @public
 */
export const PlacementReasons = {
  /** Promotes: the zone names no cluster and runs on the management cluster. */
  ManagementCluster: 'ManagementCluster',
  /** Promotes: the cluster is on the org's allowlist and Registered. */
  Registered: 'Registered',
  /** Fails: the zone's name is not a namespace name. */
  InvalidZone: 'InvalidZone',
  /** Fails: the zone's applicationPath breaks the path rules. */
  InvalidApplicationPath: 'InvalidApplicationPath',
  /**
   * Fails: another Product keeps the zone's name (its Application `product-<zone>` and namespace)
   * or its Application file (zoneCollisions).
   */
  ZoneTaken: 'ZoneTaken',
  /** Fails: no Organization holds the Product's namespace, so there is no allowlist. */
  NoOrganization: 'NoOrganization',
  /** Fails: the cluster is not on the org's cluster allowlist. */
  NotOnAllowlist: 'NotOnAllowlist',
  /** Fails: no Cluster of that name. */
  UnknownCluster: 'UnknownCluster',
  /** Waits: the Cluster exists but is not Registered yet. */
  NotRegistered: 'NotRegistered',
  /** Waits: the zone's AppProject does not exist in namespace argocd. */
  AppProjectMissing: 'AppProjectMissing',
  /** Waits: the zone's AppProject does not allow the destination. */
  DestinationNotPermitted: 'DestinationNotPermitted',
  /**
   * Waits: the zone's AppProject does not let Argo CD create the zone's Namespace (the zone
   * Application's `CreateNamespace=true`; Namespace is not on its `spec.clusterResourceWhitelist`).
   */
  NamespaceNotPermitted: 'NamespaceNotPermitted',
} as const;
/** @public */
export type PlacementReason =
  (typeof PlacementReasons)[keyof typeof PlacementReasons];

/**
 * What the decision needs to know about a Cluster.
 *
 * @public
 */
export interface PlacementClusterFacts {
  name: string;
  /** The Registered condition is True. */
  registered: boolean;
  /** The Registered condition's message, to say why it is not Registered. */
  registeredMessage?: string;
  /** Reached in-cluster: Argo CD's built-in destination, https://kubernetes.default.svc. */
  inCluster: boolean;
  /** The server in its Argo CD cluster Secret (status.argoServer), which an AppProject may list. */
  argoServer?: string;
}

/** @public */
export interface ZonePlacementInput {
  zone: ProductZone;
  /** The Product's namespace (named when no org holds it). */
  productNamespace: string;
  /** The Product's org and its allowlist; undefined when no Organization holds the namespace. */
  org?: { name: string; clusterAllowlist: readonly string[] };
  /** The Cluster the zone names, when Infrared knows it; undefined otherwise. */
  cluster?: PlacementClusterFacts;
  /** The management cluster's name: a zone without `cluster` runs there. */
  managementCluster: string;
  /** The AppProject the zone's Application uses. */
  project: string;
  /**
   * The AppProject as read from namespace argocd: null when it does not exist, undefined when it was
   * not read (the check is skipped).
   */
  appProject?: AppProjectFacts | null;
  /** Another Product keeps this zone's name or Application file (zoneCollisions); undefined when none. */
  collision?: ZoneCollision;
}

/** @public */
export interface ZonePlacement {
  decision: PlacementDecision;
  reason: PlacementReason;
  /** The reason in words, with what to do about it. */
  message: string;
  /** The cluster the zone runs on: its `cluster`, or the management cluster. */
  cluster: string;
  applicationName: string;
  applicationPath: string;
  /** The Application's spec.destination. */
  destination: ArgoDestination;
  project: string;
  /** For DestinationNotPermitted: the AppProject destination entry to add. */
  missingDestination?: ArgoDestination;
}

/**
 * Argo CD's own name for the cluster it runs on.
 *
 * @public
 */
export const IN_CLUSTER_NAME = 'in-cluster';

/**
 * The zone Application's destination: `name: <cluster>` and `namespace: <zone>`; for the management
 * cluster or an inCluster workload cluster, `server: https://kubernetes.default.svc`.
 *
 * @public
 */
export function zoneDestination(
  zone: Pick<ProductZone, 'name' | 'cluster'>,
  cluster: Pick<PlacementClusterFacts, 'inCluster'> | undefined,
): ArgoDestination {
  if (!zone.cluster || cluster?.inCluster) {
    return { server: IN_CLUSTER_SERVER, namespace: zone.name };
  }
  return { name: zone.cluster, namespace: zone.name };
}

/** The kind the zone Application's `CreateNamespace=true` makes. */
const NAMESPACE_KIND = { group: '', kind: 'Namespace' };

function describeDestination(d: ArgoDestination): string {
  return d.name
    ? `name ${d.name}, namespace ${d.namespace}`
    : `server ${d.server}, namespace ${d.namespace}`;
}

function listOrNone(items: readonly string[]): string {
  return items.length ? items.join(', ') : 'none';
}

/** One row of the decision table that applies: what it decides and why. */
interface Outcome {
  decision: PlacementDecision;
  reason: PlacementReason;
  message: string;
  extra?: Partial<ZonePlacement>;
}

const outcome = (
  decision: PlacementDecision,
  reason: PlacementReason,
  message: string,
  extra?: Partial<ZonePlacement>,
): Outcome => ({ decision, reason, message, extra });

/**
 * Decides one zone; see the table in the README (Fails, Waits, Promotes). The rows are read in
 * order: the zone's own fields, its cluster, the AppProject, then Promotes.
 *
 * @public
 */
export function decideZonePlacement(input: ZonePlacementInput): ZonePlacement {
  const { zone, cluster, managementCluster, project } = input;
  const destination = zoneDestination(zone, cluster);
  const found =
    zoneOutcome(input) ??
    clusterOutcome(input) ??
    appProjectOutcome(input, destination) ??
    promotesOutcome(input);
  return {
    decision: found.decision,
    reason: found.reason,
    message: found.message,
    cluster: zoneTargetCluster(zone, managementCluster),
    applicationName: zoneApplicationName(zone),
    applicationPath: zoneApplicationPath(zone, managementCluster),
    destination,
    project,
    ...found.extra,
  };
}

/** The zone's own fields: its name, its applicationPath, another Product holding either. */
function zoneOutcome({ zone, collision }: ZonePlacementInput) {
  const nameProblem = zoneNameProblem(zone.name);
  if (nameProblem)
    return outcome('Fails', PlacementReasons.InvalidZone, nameProblem);
  const pathProblem = zone.applicationPath
    ? applicationPathProblem(
        zone.applicationPath,
        `zone ${zone.name}'s applicationPath`,
      )
    : undefined;
  if (pathProblem)
    return outcome(
      'Fails',
      PlacementReasons.InvalidApplicationPath,
      pathProblem,
    );
  if (collision)
    return outcome(
      'Fails',
      PlacementReasons.ZoneTaken,
      zoneCollisionMessage(zone, collision),
    );
  return undefined;
}

/** A zone that names a cluster: the org allows it, Infrared knows it, it is Registered. */
function clusterOutcome(input: ZonePlacementInput) {
  const { zone, org, cluster } = input;
  if (!zone.cluster) return undefined;
  if (!org) {
    return outcome(
      'Fails',
      PlacementReasons.NoOrganization,
      `cluster ${zone.cluster} is not on an org's cluster allowlist: no Organization holds namespace ${input.productNamespace} (status.namespace ir-org-<org>), so the Product has no allowlist`,
    );
  }
  if (!org.clusterAllowlist.includes(zone.cluster)) {
    return outcome(
      'Fails',
      PlacementReasons.NotOnAllowlist,
      `cluster ${zone.cluster} is not on org ${
        org.name
      }'s cluster allowlist (allowed: ${listOrNone(
        org.clusterAllowlist,
      )}); a platform admin can allow it under Orgs allowed on the cluster's panel`,
    );
  }
  if (!cluster) {
    return outcome(
      'Fails',
      PlacementReasons.UnknownCluster,
      `cluster ${zone.cluster} is not a Cluster Infrared knows: register it first`,
    );
  }
  if (!cluster.registered) {
    const why = cluster.registeredMessage
      ? ` (${cluster.registeredMessage})`
      : '';
    return outcome(
      'Waits',
      PlacementReasons.NotRegistered,
      `cluster ${zone.cluster} is not Registered yet${why}; checked again every minute`,
    );
  }
  return undefined;
}

/** The AppProject (when read): it exists, permits the destination and the zone's Namespace. */
function appProjectOutcome(
  { appProject, project, cluster }: ZonePlacementInput,
  destination: ArgoDestination,
) {
  if (appProject === null) {
    return outcome(
      'Waits',
      PlacementReasons.AppProjectMissing,
      `AppProject ${project} does not exist in namespace argocd: Argo CD refuses an Application whose project is missing`,
    );
  }
  if (!appProject) return undefined;
  const resolved: ArgoDestination = destination.name
    ? {
        name: destination.name,
        server: cluster?.argoServer,
        namespace: destination.namespace,
      }
    : {
        server: destination.server,
        name: IN_CLUSTER_NAME,
        namespace: destination.namespace,
      };
  const permitted =
    !appProject.permitOnlyProjectScopedClusters &&
    appProjectPermits(appProject, resolved);
  if (!permitted) {
    const scoped = appProject.permitOnlyProjectScopedClusters
      ? ' (it permits only project-scoped clusters, and Infrared does not scope cluster Secrets to a project)'
      : '';
    return outcome(
      'Waits',
      PlacementReasons.DestinationNotPermitted,
      `AppProject ${project} does not allow destination ${describeDestination(
        destination,
      )}${scoped}: add it to the AppProject's spec.destinations, or Argo CD refuses to sync the Application`,
      { missingDestination: destination },
    );
  }
  if (
    !appProjectPermitsClusterResource(
      appProject,
      NAMESPACE_KIND,
      destination.namespace ?? '',
    )
  ) {
    return outcome(
      'Waits',
      PlacementReasons.NamespaceNotPermitted,
      `AppProject ${project} does not let Argo CD create Namespace ${destination.namespace}, which the zone Application makes (CreateNamespace=true): add { group: '', kind: Namespace } to the AppProject's spec.clusterResourceWhitelist (and keep it off spec.clusterResourceBlacklist), or Argo CD fails the sync with "resource :Namespace is not permitted in project ${project}"`,
    );
  }
  return undefined;
}

/** Nothing stops the zone: it runs on the management cluster, or on its allowed, Registered one. */
function promotesOutcome({ zone, org, managementCluster }: ZonePlacementInput) {
  if (!zone.cluster) {
    return outcome(
      'Promotes',
      PlacementReasons.ManagementCluster,
      `the zone names no cluster: it runs on the management cluster ${managementCluster}`,
    );
  }
  return outcome(
    'Promotes',
    PlacementReasons.Registered,
    `cluster ${zone.cluster} is on org ${
      org!.name
    }'s cluster allowlist and Registered`,
  );
}

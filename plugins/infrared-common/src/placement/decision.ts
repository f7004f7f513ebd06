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

/**
 * Decides one zone; see the table in the README (Fails, Waits, Promotes).
 *
 * @public
 */
export function decideZonePlacement(input: ZonePlacementInput): ZonePlacement {
  const { zone, org, cluster, managementCluster, project } = input;
  const target = zoneTargetCluster(zone, managementCluster);
  const destination = zoneDestination(zone, cluster);
  const base = {
    cluster: target,
    applicationName: zoneApplicationName(zone),
    applicationPath: zoneApplicationPath(zone, managementCluster),
    destination,
    project,
  };
  const result = (
    decision: PlacementDecision,
    reason: PlacementReason,
    message: string,
    extra: Partial<ZonePlacement> = {},
  ): ZonePlacement => ({ decision, reason, message, ...base, ...extra });

  const nameProblem = zoneNameProblem(zone.name);
  if (nameProblem) {
    return result('Fails', PlacementReasons.InvalidZone, nameProblem);
  }
  if (zone.applicationPath) {
    const pathProblem = applicationPathProblem(
      zone.applicationPath,
      `zone ${zone.name}'s applicationPath`,
    );
    if (pathProblem) {
      return result(
        'Fails',
        PlacementReasons.InvalidApplicationPath,
        pathProblem,
      );
    }
  }

  if (input.collision) {
    return result(
      'Fails',
      PlacementReasons.ZoneTaken,
      zoneCollisionMessage(zone, input.collision),
    );
  }

  if (zone.cluster) {
    if (!org) {
      return result(
        'Fails',
        PlacementReasons.NoOrganization,
        `cluster ${zone.cluster} is not on an org's cluster allowlist: no Organization holds namespace ${input.productNamespace} (status.namespace ir-org-<org>), so the Product has no allowlist`,
      );
    }
    if (!org.clusterAllowlist.includes(zone.cluster)) {
      return result(
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
      return result(
        'Fails',
        PlacementReasons.UnknownCluster,
        `cluster ${zone.cluster} is not a Cluster Infrared knows: register it first`,
      );
    }
    if (!cluster.registered) {
      const why = cluster.registeredMessage
        ? ` (${cluster.registeredMessage})`
        : '';
      return result(
        'Waits',
        PlacementReasons.NotRegistered,
        `cluster ${zone.cluster} is not Registered yet${why}; checked again every minute`,
      );
    }
  }

  if (input.appProject === null) {
    return result(
      'Waits',
      PlacementReasons.AppProjectMissing,
      `AppProject ${project} does not exist in namespace argocd: Argo CD refuses an Application whose project is missing`,
    );
  }
  if (input.appProject) {
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
      !input.appProject.permitOnlyProjectScopedClusters &&
      appProjectPermits(input.appProject, resolved);
    if (!permitted) {
      const scoped = input.appProject.permitOnlyProjectScopedClusters
        ? ' (it permits only project-scoped clusters, and Infrared does not scope cluster Secrets to a project)'
        : '';
      return result(
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
        input.appProject,
        NAMESPACE_KIND,
        destination.namespace ?? '',
      )
    ) {
      return result(
        'Waits',
        PlacementReasons.NamespaceNotPermitted,
        `AppProject ${project} does not let Argo CD create Namespace ${destination.namespace}, which the zone Application makes (CreateNamespace=true): add { group: '', kind: Namespace } to the AppProject's spec.clusterResourceWhitelist (and keep it off spec.clusterResourceBlacklist), or Argo CD fails the sync with "resource :Namespace is not permitted in project ${project}"`,
      );
    }
  }

  if (!zone.cluster) {
    return result(
      'Promotes',
      PlacementReasons.ManagementCluster,
      `the zone names no cluster: it runs on the management cluster ${managementCluster}`,
    );
  }
  return result(
    'Promotes',
    PlacementReasons.Registered,
    `cluster ${zone.cluster} is on org ${
      org!.name
    }'s cluster allowlist and Registered`,
  );
}

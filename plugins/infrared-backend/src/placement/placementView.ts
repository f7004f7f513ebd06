/**
 * What the placement service answers and refuses, as pure functions of what it read: a Product's
 * placement view (each zone's decision with its part of the latest Release) and who may set a
 * zone's cluster.
 */
import { InputError, NotAllowedError } from '@backstage/errors';
import {
  appProjectFacts,
  decideZonePlacement,
  isOrgAdmin,
  orgAllowlist,
  placementClusterFacts,
  zoneApproval,
  zoneApprovalRefusal,
  zoneClaimKey,
  zoneCollisions,
  zoneEnvironment,
  type OrganizationResource,
  type ProductPlacementView,
  type ProductResource,
  type ReleaseResource,
  type ReleaseZoneStatus,
} from '@infrared-clusters/plugin-infrared-common';
import type {
  ClusterApi,
  PlacementKubeApi,
} from '@infrared-clusters/infrared-kube';
import type { PlacementCaller } from './service';

type ClusterResource = Awaited<ReturnType<ClusterApi['list']>>[number];
type AppProject = Awaited<
  ReturnType<PlacementKubeApi['listAppProjects']>
>[number];

/** What a Product's placement view is made of, as the service read it. */
export interface PlacementViewInput {
  namespace: string;
  name: string;
  product: ProductResource;
  org: OrganizationResource | undefined;
  clusters: ClusterResource[];
  /** The zone Applications' AppProject; undefined when it does not exist. */
  appProject: AppProject | undefined;
  release: ReleaseResource | undefined;
  collisions: ReturnType<typeof zoneCollisions>;
  caller: PlacementCaller;
  managementCluster: string;
  project: string;
}

/** A zone row's part of the latest Release: its name, and the zone's phase in it when it has one. */
function zoneInRelease(
  release: ReleaseResource,
  zone: ReleaseZoneStatus | undefined,
) {
  return {
    name: release.metadata.name,
    ...(zone
      ? {
          phase: zone.phase,
          reason: zone.reason,
          message: zone.message,
          approvedBy: zone.approvedBy,
          approvedAt: zone.approvedAt,
        }
      : {}),
  };
}

/** Each zone's decision, reason, Application path, destination and the clusters the org may use. */
export function productPlacementView(
  input: PlacementViewInput,
): ProductPlacementView {
  const { namespace, name, product, org, caller, release } = input;
  const allowed = org ? orgAllowlist(org) : [];
  const mayChange = !zoneApprovalRefusal(caller, org);
  const view: ProductPlacementView = {
    namespace,
    name,
    displayName: product.spec.displayName || name,
    managementCluster: input.managementCluster,
    allowedClusters: allowed,
    zones: zoneRows(input, allowed),
    can: {
      updateAllowlist: caller.platformAdmin,
      // one rule: org admins of the Product's org and platform admins
      setZoneCluster: mayChange,
      approveZones: mayChange,
    },
  };
  if (org) {
    view.org = {
      name: org.metadata.name,
      displayName: org.spec.displayName || org.metadata.name,
    };
  }
  if (release) {
    view.latestRelease = { name: release.metadata.name };
    if (release.status?.phase) view.latestRelease.phase = release.status.phase;
    const version = release.status?.version || release.spec.version;
    if (version) view.latestRelease.version = version;
  }
  return view;
}

function zoneRows(
  input: PlacementViewInput,
  allowed: string[],
): ProductPlacementView['zones'] {
  const { namespace, product, org, release, managementCluster, project } =
    input;
  const facts = new Map(
    input.clusters.map(c => [c.metadata.name, placementClusterFacts(c)]),
  );
  const releaseZones = new Map(
    (release?.status?.zones ?? []).map(z => [z.name, z]),
  );
  return (product.spec.delivery?.zones ?? []).map(zone => {
    const placement = decideZonePlacement({
      zone,
      productNamespace: namespace,
      org: org
        ? { name: org.metadata.name, clusterAllowlist: allowed }
        : undefined,
      cluster: zone.cluster ? facts.get(zone.cluster) : undefined,
      managementCluster,
      project,
      appProject: input.appProject ? appProjectFacts(input.appProject) : null,
      collision: input.collisions.get(zoneClaimKey(product, zone)),
    });
    const inRelease = releaseZones.get(zone.name);
    return {
      ...placement,
      name: zone.name,
      environment: zoneEnvironment(zone),
      approval: zoneApproval(zone),
      choices: allowed,
      clusterKnown: !zone.cluster || facts.has(zone.cluster),
      ...(release ? { release: zoneInRelease(release, inRelease) } : {}),
    };
  });
}

/**
 * Refuses to set a zone's cluster unless the caller is an org admin of the Product's org or a
 * platform admin, and the cluster (null: the management cluster) is on the org's allowlist.
 */
export function assertMaySetZoneCluster(
  org: OrganizationResource | undefined,
  namespace: string,
  cluster: string | null,
  caller: PlacementCaller,
): void {
  if (
    !caller.platformAdmin &&
    !(org && isOrgAdmin(org, caller.userEntityRef))
  ) {
    throw new NotAllowedError(
      `only an org admin of ${
        org ? `org ${org.metadata.name}` : "the Product's org"
      } (a member of a team with role org-admin) or a platform admin may set a zone's cluster`,
    );
  }
  if (cluster) {
    if (!org) {
      throw new InputError(
        `cluster: no Organization holds namespace ${namespace}, so the Product has no cluster allowlist to choose from`,
      );
    }
    const allowed = orgAllowlist(org);
    if (!allowed.includes(cluster)) {
      throw Object.assign(
        new InputError(
          `cluster: ${cluster} is not a cluster org ${
            org.metadata.name
          } may use (allowed: ${allowed.join(', ') || 'none'})`,
        ),
        {
          errors: [
            {
              field: 'cluster',
              message: `${cluster} is not on org ${org.metadata.name}'s cluster allowlist`,
            },
          ],
        },
      );
    }
  }
}

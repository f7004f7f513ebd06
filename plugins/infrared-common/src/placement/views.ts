/** What the placement API returns, and how it is built from the resources. */
import type { ClusterResource } from '../clusters/types';
import { ClusterConditionTypes } from '../clusters/names';
import type { PlacementClusterFacts, ZonePlacement } from './decision';
import { orgAllowlist, orgStatusNamespace } from './org';
import { zoneTargetCluster } from './paths';
import type {
  OrganizationResource,
  ProductResource,
  ProductZone,
  ReleasePhase,
  ReleaseResource,
  ReleaseZonePhase,
  ZoneApproval,
  ZoneEnvironment,
} from './types';

/** An Organization as GET /v1/orgs lists it. */
export interface OrganizationView {
  name: string;
  displayName: string;
  /** The namespace holding its Products (status.namespace, or ir-org-<name>). */
  namespace: string;
  platform: boolean;
  clusterAllowlist: string[];
}

/** Body of GET /v1/orgs. */
export interface OrganizationList {
  items: OrganizationView[];
}

/** A Product's zone as GET /v1/zones lists it (for the Clusters page). */
export interface ZoneView {
  product: { namespace: string; name: string; displayName: string };
  /** The Product's org, when an Organization holds its namespace. */
  org?: string;
  zone: string;
  environment: ZoneEnvironment;
  /** The cluster the zone runs on: its `cluster`, or the management cluster. */
  cluster: string;
  /** False when the zone names no cluster and runs on the management cluster. */
  clusterSet: boolean;
}

/** Body of GET /v1/zones. */
export interface ZoneList {
  items: ZoneView[];
}

/** One zone of GET /v1/products/{namespace}/{name}/placement. */
export interface ZonePlacementView extends ZonePlacement {
  name: string;
  environment: ZoneEnvironment;
  approval: ZoneApproval;
  /** The clusters the org may choose from: its allowlist. */
  choices: string[];
  /** The zone in the Product's latest Release, when there is one. */
  release?: {
    name: string;
    phase?: ReleaseZonePhase;
    reason?: string;
    message?: string;
  };
}

/** Body of GET /v1/products/{namespace}/{name}/placement. */
export interface ProductPlacementView {
  namespace: string;
  name: string;
  displayName: string;
  org?: { name: string; displayName: string };
  managementCluster: string;
  /** The org's cluster allowlist. */
  allowedClusters: string[];
  zones: ZonePlacementView[];
  latestRelease?: { name: string; phase?: ReleasePhase; version?: string };
  /** What the caller may change from the card. */
  can: { setZoneCluster: boolean; updateAllowlist: boolean };
}

/** A zone's environment: pre-release unless it says release. */
export function zoneEnvironment(zone: ProductZone): ZoneEnvironment {
  return zone.environment === 'release' ? 'release' : 'pre-release';
}

/** A zone's approval: its own, else auto for pre-release and human for release. */
export function zoneApproval(zone: ProductZone): ZoneApproval {
  if (zone.approval === 'auto' || zone.approval === 'human')
    return zone.approval;
  return zoneEnvironment(zone) === 'release' ? 'human' : 'auto';
}

export function organizationView(org: OrganizationResource): OrganizationView {
  return {
    name: org.metadata.name,
    displayName: org.spec.displayName || org.metadata.name,
    namespace: orgStatusNamespace(org),
    platform: org.spec.platform === true,
    clusterAllowlist: orgAllowlist(org),
  };
}

/** The zones of one Product, as the Clusters page lists them. */
export function productZoneViews(
  product: ProductResource,
  org: OrganizationResource | undefined,
  managementCluster: string,
): ZoneView[] {
  return (product.spec.delivery?.zones ?? []).map(zone => {
    const view: ZoneView = {
      product: {
        namespace: product.metadata.namespace ?? '',
        name: product.metadata.name,
        displayName: product.spec.displayName || product.metadata.name,
      },
      zone: zone.name,
      environment: zoneEnvironment(zone),
      cluster: zoneTargetCluster(zone, managementCluster),
      clusterSet: !!zone.cluster,
    };
    if (org) view.org = org.metadata.name;
    return view;
  });
}

/** What the decision needs of a Cluster resource. */
export function placementClusterFacts(
  cluster: ClusterResource,
): PlacementClusterFacts {
  const registered = cluster.status?.conditions?.find(
    c => c.type === ClusterConditionTypes.Registered,
  );
  const facts: PlacementClusterFacts = {
    name: cluster.metadata.name,
    registered: registered?.status === 'True',
    inCluster: cluster.spec.connection?.inCluster === true,
  };
  if (registered && registered.status !== 'True' && registered.message) {
    facts.registeredMessage = registered.message;
  }
  if (cluster.status?.argoServer) facts.argoServer = cluster.status.argoServer;
  return facts;
}

/** The newest Release of a Product (by creation time, then name), in the Product's namespace. */
export function latestRelease<T extends ReleaseResource>(
  releases: readonly T[],
  product: Pick<ProductResource, 'metadata'>,
): T | undefined {
  let latest: T | undefined;
  for (const r of releases) {
    if (r.metadata.namespace !== product.metadata.namespace) continue;
    if (r.spec?.productRef?.name !== product.metadata.name) continue;
    if (!latest) {
      latest = r;
      continue;
    }
    const a = r.metadata.creationTimestamp ?? '';
    const b = latest.metadata.creationTimestamp ?? '';
    if (a > b || (a === b && r.metadata.name > latest.metadata.name)) {
      latest = r;
    }
  }
  return latest;
}

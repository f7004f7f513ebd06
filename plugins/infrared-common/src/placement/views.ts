/** What the placement API returns, and how it is built from the resources. */
import type { ClusterResource } from '../clusters/types';
import { ClusterConditionTypes } from '../clusters/names';
import type {
  Organization as OrganizationBody,
  OrganizationList as OrganizationListBody,
  ProductPlacement as ProductPlacementBody,
  Zone as ZoneBody,
  ZoneList as ZoneListBody,
  ZonePlacement as ZonePlacementBody,
} from '../schema/openapi';
import type { PlacementClusterFacts } from './decision';
import { orgAllowlist, orgStatusNamespace } from './org';
import { zoneTargetCluster } from './paths';
import type {
  OrganizationResource,
  ProductResource,
  ProductZone,
  ReleaseResource,
  ZoneApproval,
  ZoneEnvironment,
} from './types';

/*
 * The placement API's answers are the models generated from openapi.yaml
 * (src/schema/openapi/generated); these names are what the plugins import.
 */

/**
 * An Organization as GET /v1/orgs lists it.
 *
 * @public
 */
export type OrganizationView = OrganizationBody;

/**
 * Body of GET /v1/orgs.
 *
 * @public
 */
export type OrganizationList = OrganizationListBody;

/**
 * A Product's zone as GET /v1/zones lists it (for the Clusters page).
 *
 * @public
 */
export type ZoneView = ZoneBody;

/**
 * Body of GET /v1/zones.
 *
 * @public
 */
export type ZoneList = ZoneListBody;

/**
 * One zone of GET /v1/products/\{namespace\}/\{name\}/placement.
 *
 * @public
 */
export type ZonePlacementView = ZonePlacementBody;

/**
 * Body of GET /v1/products/\{namespace\}/\{name\}/placement.
 *
 * @public
 */
export type ProductPlacementView = ProductPlacementBody;

/**
 * A zone's environment: pre-release unless it says release.
 *
 * @public
 */
export function zoneEnvironment(zone: ProductZone): ZoneEnvironment {
  return zone.environment === 'release' ? 'release' : 'pre-release';
}

/**
 * A zone's approval: its own, else auto for pre-release and human for release.
 *
 * @public
 */
export function zoneApproval(zone: ProductZone): ZoneApproval {
  if (zone.approval === 'auto' || zone.approval === 'human')
    return zone.approval;
  return zoneEnvironment(zone) === 'release' ? 'human' : 'auto';
}

/** @public */
export function organizationView(org: OrganizationResource): OrganizationView {
  return {
    name: org.metadata.name,
    displayName: org.spec.displayName || org.metadata.name,
    namespace: orgStatusNamespace(org),
    platform: org.spec.platform === true,
    clusterAllowlist: orgAllowlist(org),
  };
}

/**
 * The zones of one Product, as the Clusters page lists them.
 *
 * @public
 */
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

/**
 * What the decision needs of a Cluster resource.
 *
 * @public
 */
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

/**
 * The newest Release of a Product (by creation time, then name), in the Product's namespace.
 *
 * @public
 */
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

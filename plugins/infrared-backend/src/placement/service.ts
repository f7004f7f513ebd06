/** What the placement routes delegate to: org allowlists, zones, a Product's placement. */
import type { LoggerService } from '@backstage/backend-plugin-api';
import { ConflictError, NotFoundError } from '@backstage/errors';
import {
  ARGOCD_NAMESPACE,
  findOrgOfNamespace,
  goneAllowlistEntries,
  latestRelease,
  orgAllowlist,
  organizationView,
  productZoneViews,
  zoneCollisions,
  type ClusterAllowlistView,
  type OrganizationResource,
  type OrganizationView,
  type ProductPlacementView,
  type ProductResource,
  type ReleaseZoneApprovalView,
  type ZoneView,
} from '@infrared-clusters/plugin-infrared-common';
import {
  retryOnConflict,
  type ClusterApi,
  type PlacementKubeApi,
} from '@infrared-clusters/infrared-kube';
import { zoneApplicationHolders, ZONE_LABEL } from './application';
import { approveReleaseZone, type ApproveZoneRequest } from './approval';
import { assertMaySetZoneCluster, productPlacementView } from './placementView';

/** Who asks, as far as placement cares. */
export interface PlacementCaller {
  /** The signed-in user's entity ref; undefined for a service. */
  userEntityRef?: string;
  /** A service principal's subject (an approval by a service names it); undefined for a user. */
  service?: string;
  /** The caller holds infrared.allowlist.update. */
  platformAdmin: boolean;
}

export interface PlacementServiceOptions {
  kube: PlacementKubeApi;
  clusters: Pick<ClusterApi, 'list'>;
  managementCluster: string;
  /** The AppProject of zone Applications. */
  project: string;
  logger: LoggerService;
  /** Called after every write (the gate looks again at once). */
  onChange?: () => void;
}

/** The allowlist before and after a PUT, for the audit log. */
export interface AllowlistChange {
  org: string;
  before: string[];
  after: string[];
  changed: boolean;
}

export class PlacementService {
  constructor(private readonly options: PlacementServiceOptions) {}

  async listOrgs(): Promise<OrganizationView[]> {
    const orgs = await this.options.kube.listOrganizations();
    return orgs
      .map(organizationView)
      .sort((a, b) => a.name.localeCompare(b.name));
  }

  private async org(name: string): Promise<OrganizationResource> {
    const org = await this.options.kube.getOrganization(name);
    if (!org) throw new NotFoundError(`Organization ${name} not found`);
    return org;
  }

  /** The org's allowlist, and the names on it no Cluster has (`gone`). */
  /** The clusters on an org's allowlist, with no other read (404 for an unknown org). */
  async allowedClusters(org: string): Promise<string[]> {
    return orgAllowlist(await this.org(org));
  }

  async getAllowlist(org: string): Promise<ClusterAllowlistView> {
    const [found, clusters] = await Promise.all([
      this.org(org),
      this.options.clusters.list(),
    ]);
    const allowed = orgAllowlist(found);
    const known = [
      this.options.managementCluster,
      ...clusters.map(c => c.metadata.name),
    ];
    return { clusters: allowed, gone: goneAllowlistEntries(allowed, known) };
  }

  /**
   * Replaces an org's cluster allowlist (stored sorted, as the set it is), or changes it with a
   * function of the stored list. Writes nothing when it already holds exactly these clusters. 404
   * for an unknown org.
   */
  async replaceAllowlist(
    name: string,
    clusters: string[] | ((before: string[]) => string[]),
  ): Promise<AllowlistChange> {
    const change = await retryOnConflict(async () => {
      const org = await this.org(name);
      const before = orgAllowlist(org);
      // a function is applied to the list as read, so a concurrent change is not lost
      const next = typeof clusters === 'function' ? clusters(before) : clusters;
      const after = [...new Set(next)].sort();
      const stored = org.spec.clusterAllowlist ?? [];
      const same =
        stored.length === after.length &&
        stored.every((c, i) => c === after[i]);
      if (!same) {
        await this.options.kube.replaceClusterAllowlist(
          name,
          after,
          org.metadata.resourceVersion ?? '',
        );
      }
      return { org: name, before, after, changed: !same };
    });
    if (change.changed) this.options.onChange?.();
    return change;
  }

  /** Every Product zone, with the cluster it runs on (for the Clusters page). */
  async listZones(): Promise<ZoneView[]> {
    const [products, orgs] = await Promise.all([
      this.options.kube.listProducts(),
      this.options.kube.listOrganizations(),
    ]);
    return products
      .sort((a, b) =>
        `${a.metadata.namespace}/${a.metadata.name}`.localeCompare(
          `${b.metadata.namespace}/${b.metadata.name}`,
        ),
      )
      .flatMap(p =>
        productZoneViews(
          p,
          findOrgOfNamespace(orgs, p.metadata.namespace ?? ''),
          this.options.managementCluster,
        ),
      );
  }

  /** Zones whose name or Application file another Product keeps, as the gate sees them. */
  private async collisions() {
    const { kube, managementCluster } = this.options;
    const [products, applications] = await Promise.all([
      kube.listProducts(),
      kube.listApplications(ARGOCD_NAMESPACE, ZONE_LABEL),
    ]);
    return zoneCollisions(
      products,
      managementCluster,
      zoneApplicationHolders(applications),
    );
  }

  private async product(
    namespace: string,
    name: string,
  ): Promise<ProductResource> {
    const product = await this.options.kube.getProduct(namespace, name);
    if (!product) {
      throw new NotFoundError(`Product ${namespace}/${name} not found`);
    }
    return product;
  }

  /** Each zone's decision, reason, Application path, destination and the clusters the org may use. */
  async getPlacement(
    namespace: string,
    name: string,
    caller: PlacementCaller,
  ): Promise<ProductPlacementView> {
    const { kube, managementCluster, project } = this.options;
    const product = await this.product(namespace, name);
    const [orgs, clusters, projects, releases, collisions] = await Promise.all([
      kube.listOrganizations(),
      this.options.clusters.list(),
      kube.listAppProjects(ARGOCD_NAMESPACE),
      kube.listReleases(namespace),
      this.collisions(),
    ]);
    return productPlacementView({
      namespace,
      name,
      product,
      org: findOrgOfNamespace(orgs, namespace),
      clusters,
      appProject: projects.find(p => p.metadata.name === project),
      release: latestRelease(releases, product),
      collisions,
      caller,
      managementCluster,
      project,
    });
  }

  /**
   * Approves a zone of a Release awaiting a human approval (see approval.ts), then starts a gate
   * pass.
   */
  approveZone(
    request: ApproveZoneRequest,
    caller: PlacementCaller,
  ): Promise<ReleaseZoneApprovalView> {
    return approveReleaseZone(
      { kube: this.options.kube, onChange: this.options.onChange },
      request,
      caller,
    );
  }

  /**
   * Sets (or clears, with null: the management cluster) a zone's cluster, for an org admin of the
   * Product's org or a platform admin. The cluster must be on the org's allowlist.
   */
  async setZoneCluster(
    namespace: string,
    name: string,
    zoneName: string,
    cluster: string | null,
    caller: PlacementCaller,
  ): Promise<{ before?: string; after?: string }> {
    const change = await retryOnConflict(async () => {
      const product = await this.product(namespace, name);
      const zones = product.spec.delivery?.zones ?? [];
      const index = zones.findIndex(z => z.name === zoneName);
      if (index < 0) {
        throw new NotFoundError(
          `Product ${namespace}/${name} has no zone ${zoneName} (zones: ${
            zones.map(z => z.name).join(', ') || 'none'
          })`,
        );
      }
      const orgs = await this.options.kube.listOrganizations();
      const org = findOrgOfNamespace(orgs, namespace);
      assertMaySetZoneCluster(org, namespace, cluster, caller);
      const before = zones[index].cluster || undefined;
      const after = cluster ?? undefined;
      if (before === after) return { before, after, changed: false };
      const next = zones.map((z, i) => {
        if (i !== index) return z;
        const zone = { ...z, cluster: after };
        if (!after) delete zone.cluster;
        return zone;
      });
      if (!product.metadata.resourceVersion) {
        throw new ConflictError(
          `Product ${namespace}/${name} has no resourceVersion`,
        );
      }
      await this.options.kube.replaceZones(
        namespace,
        name,
        next,
        product.metadata.resourceVersion,
      );
      return { before, after, changed: true };
    });
    if (change.changed) this.options.onChange?.();
    return { before: change.before, after: change.after };
  }
}

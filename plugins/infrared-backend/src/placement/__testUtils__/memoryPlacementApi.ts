import type {
  OrganizationResource,
  ProductResource,
  ProductZone,
  ReleaseResource,
  ReleaseStatus,
} from '@infrared-clusters/plugin-infrared-common';
import {
  KubeApiError,
  RequestCounter,
  type ArgoObject,
  type PlacementKubeApi,
} from '@infrared-clusters/infrared-kube';
import { matchesLabelSelector } from '@infrared-clusters/infrared-kube/testUtils';

const clone = <T>(v: T): T => structuredClone(v);

/**
 * PlacementKubeApi in memory, for unit tests of the routes: resourceVersions and their 409
 * conflicts, 404s, and a counter of every request. The integration tests use the real API server.
 */
export class MemoryPlacementApi implements PlacementKubeApi {
  readonly counter = new RequestCounter();
  readonly orgs = new Map<string, OrganizationResource>();
  readonly products = new Map<string, ProductResource>();
  readonly releases = new Map<string, ReleaseResource>();
  readonly applications = new Map<string, ArgoObject>();
  readonly appProjects = new Map<string, ArgoObject>();
  private version = 1;

  private tick(): string {
    return String(++this.version);
  }

  /** Writes so far (PATCH requests). */
  get writes(): number {
    return this.counter.byVerb().PATCH ?? 0;
  }

  addOrg(name: string, spec: Partial<OrganizationResource['spec']> = {}) {
    this.orgs.set(name, {
      apiVersion: 'infrared.darkshift.io/v1alpha1',
      kind: 'Organization',
      metadata: { name, resourceVersion: this.tick() },
      spec: { displayName: name, ...spec },
      status: { namespace: `ir-org-${name}` },
    });
  }

  addProduct(namespace: string, name: string, zones: ProductZone[]) {
    this.products.set(`${namespace}/${name}`, {
      apiVersion: 'infrared.darkshift.io/v1alpha1',
      kind: 'Product',
      metadata: { name, namespace, resourceVersion: this.tick() },
      spec: {
        displayName: name,
        repos: [{ name }],
        delivery: { zones },
      },
    });
  }

  addAppProject(name: string, destinations: Array<Record<string, string>>) {
    this.appProjects.set(name, {
      metadata: { name, namespace: 'argocd' },
      // Namespace: the zone Application's CreateNamespace=true needs it, as Argo CD does
      spec: {
        destinations,
        clusterResourceWhitelist: [{ group: '', kind: 'Namespace' }],
      },
    });
  }

  private precondition(
    current: { metadata: { resourceVersion?: string } },
    resourceVersion: string | undefined,
    what: string,
  ) {
    if (
      resourceVersion &&
      current.metadata.resourceVersion !== resourceVersion
    ) {
      throw new KubeApiError(
        409,
        'Conflict',
        `${what}: the object has been modified`,
      );
    }
  }

  async listOrganizations() {
    this.counter.count('GET');
    return [...this.orgs.values()].map(clone);
  }

  async getOrganization(name: string) {
    this.counter.count('GET');
    const org = this.orgs.get(name);
    return org && clone(org);
  }

  async replaceClusterAllowlist(
    name: string,
    clusters: string[],
    resourceVersion: string,
  ) {
    this.counter.count('PATCH');
    const org = this.orgs.get(name);
    if (!org) throw new KubeApiError(404, 'NotFound', `organization ${name}`);
    this.precondition(org, resourceVersion, `organization ${name}`);
    org.spec.clusterAllowlist = [...clusters];
    org.metadata.resourceVersion = this.tick();
    return clone(org);
  }

  async listProducts(namespace?: string) {
    this.counter.count('GET');
    return [...this.products.values()]
      .filter(p => !namespace || p.metadata.namespace === namespace)
      .map(clone);
  }

  async getProduct(namespace: string, name: string) {
    this.counter.count('GET');
    const product = this.products.get(`${namespace}/${name}`);
    return product && clone(product);
  }

  async replaceZones(
    namespace: string,
    name: string,
    zones: ProductZone[],
    resourceVersion: string,
  ) {
    this.counter.count('PATCH');
    const product = this.products.get(`${namespace}/${name}`);
    if (!product)
      throw new KubeApiError(404, 'NotFound', `product ${namespace}/${name}`);
    this.precondition(product, resourceVersion, `product ${namespace}/${name}`);
    product.spec.delivery = { ...product.spec.delivery, zones: clone(zones) };
    product.metadata.resourceVersion = this.tick();
    return clone(product);
  }

  async listReleases(namespace?: string) {
    this.counter.count('GET');
    return [...this.releases.values()]
      .filter(r => !namespace || r.metadata.namespace === namespace)
      .map(clone);
  }

  async patchReleaseStatus(
    namespace: string,
    name: string,
    status: Partial<ReleaseStatus>,
    resourceVersion?: string,
  ) {
    this.counter.count('PATCH');
    const release = this.releases.get(`${namespace}/${name}`);
    if (!release)
      throw new KubeApiError(404, 'NotFound', `release ${namespace}/${name}`);
    this.precondition(release, resourceVersion, `release ${namespace}/${name}`);
    // a JSON merge patch: a field given as undefined is not sent, null removes one
    const merged: Record<string, unknown> = { ...release.status };
    for (const [key, value] of Object.entries(status)) {
      if (value === null) delete merged[key];
      else if (value !== undefined) merged[key] = clone(value);
    }
    release.status = merged as ReleaseStatus;
    release.metadata.resourceVersion = this.tick();
    return clone(release);
  }

  async listApplications(namespace: string, labelSelector?: string) {
    this.counter.count('GET');
    return [...this.applications.values()]
      .filter(a => a.metadata.namespace === namespace)
      .filter(a => matchesLabelSelector(a.metadata.labels, labelSelector))
      .map(clone);
  }

  async listAppProjects(namespace: string) {
    this.counter.count('GET');
    return [...this.appProjects.values()]
      .filter(p => p.metadata.namespace === namespace)
      .map(clone);
  }
}

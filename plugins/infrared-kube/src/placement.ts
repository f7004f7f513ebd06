import { PatchStrategy } from '@kubernetes/client-node';
import {
  INFRARED_GROUP,
  INFRARED_KINDS,
  INFRARED_VERSION,
  type OrganizationResource,
  type ProductResource,
  type ProductZone,
  type ReleaseResource,
  type ReleaseStatus,
} from '@infrared-clusters/plugin-infrared-common';
import { KubeClient } from './client';
import type { RequestCounter } from './counter';
import { isNotFound, kubeCall as call, orUndefined } from './errors';
import { listAllPages } from './pagedList';

const infrared = (plural: string) => ({
  group: INFRARED_GROUP,
  version: INFRARED_VERSION,
  plural,
});
const ORGANIZATIONS = infrared(INFRARED_KINDS.organization.plural);
const PRODUCTS = infrared(INFRARED_KINDS.product.plural);
const RELEASES = infrared(INFRARED_KINDS.release.plural);
const APPLICATIONS = {
  group: 'argoproj.io',
  version: 'v1alpha1',
  plural: 'applications',
};
const APP_PROJECTS = {
  group: 'argoproj.io',
  version: 'v1alpha1',
  plural: 'appprojects',
};

/**
 * An Argo CD Application or AppProject as read from the API (plain JSON).
 *
 * @public
 */
export interface ArgoObject {
  apiVersion?: string;
  kind?: string;
  metadata: {
    name: string;
    namespace?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
    resourceVersion?: string;
  };
  spec?: any;
  status?: any;
}

/**
 * What placement reads and writes on the management cluster: Organizations, Products and Releases
 * (infrared.darkshift.io), and Argo CD's Applications and AppProjects. Every LIST is one request; a
 * LIST of a kind whose CRD is not installed answers empty.
 *
 * @public
 */
export interface PlacementKubeApi {
  listOrganizations(): Promise<OrganizationResource[]>;
  getOrganization(name: string): Promise<OrganizationResource | undefined>;
  /**
   * Replaces `spec.clusterAllowlist`, only if the Organization is still at `resourceVersion`
   * (KubeApiError 409 Conflict otherwise).
   */
  replaceClusterAllowlist(
    name: string,
    clusters: string[],
    resourceVersion: string,
  ): Promise<OrganizationResource>;
  /** Products in one namespace, or in all namespaces. */
  listProducts(namespace?: string): Promise<ProductResource[]>;
  getProduct(
    namespace: string,
    name: string,
  ): Promise<ProductResource | undefined>;
  /** Replaces `spec.delivery.zones`, only if the Product is still at `resourceVersion`. */
  replaceZones(
    namespace: string,
    name: string,
    zones: ProductZone[],
    resourceVersion: string,
  ): Promise<ProductResource>;
  /** Releases in one namespace, or in all namespaces. */
  listReleases(namespace?: string): Promise<ReleaseResource[]>;
  /**
   * Merge-patches a Release's status through the status subresource (a list in it is replaced
   * whole), only if the Release is still at `resourceVersion` when given.
   */
  patchReleaseStatus(
    namespace: string,
    name: string,
    status: Partial<ReleaseStatus>,
    resourceVersion?: string,
  ): Promise<ReleaseResource>;
  /** Argo CD Applications in a namespace, optionally by label selector. */
  listApplications(
    namespace: string,
    labelSelector?: string,
  ): Promise<ArgoObject[]>;
  /** Argo CD AppProjects in a namespace. */
  listAppProjects(namespace: string): Promise<ArgoObject[]>;
  counter: RequestCounter;
}

async function orEmpty<T>(p: Promise<T[]>): Promise<T[]> {
  try {
    return await p;
  } catch (e) {
    if (isNotFound(e)) return [];
    throw e;
  }
}

/**
 * PlacementKubeApi through the CustomObjects API of one client.
 *
 * @public
 */
export class KubePlacementApi implements PlacementKubeApi {
  readonly counter: RequestCounter;

  constructor(private readonly kube: KubeClient) {
    this.counter = kube.counter;
  }

  private merge() {
    return this.kube.callOptions({ contentType: PatchStrategy.MergePatch });
  }

  private async list<T>(
    what: string,
    kind: { group: string; version: string; plural: string },
    namespace?: string,
    labelSelector?: string,
  ): Promise<T[]> {
    const base = `/apis/${kind.group}/${kind.version}`;
    const path = namespace
      ? `${base}/namespaces/${encodeURIComponent(namespace)}/${kind.plural}`
      : `${base}/${kind.plural}`;
    return orEmpty(
      call(`LIST ${what}${namespace ? ` in ${namespace}` : ''}`, async () => {
        const list = await listAllPages<T>(this.kube, path, { labelSelector });
        return list.items;
      }),
    );
  }

  async listOrganizations(): Promise<OrganizationResource[]> {
    return this.list<OrganizationResource>('organizations', ORGANIZATIONS);
  }

  getOrganization(name: string): Promise<OrganizationResource | undefined> {
    return orUndefined(
      call(`GET organization ${name}`, () =>
        this.kube.custom.getClusterCustomObject({ ...ORGANIZATIONS, name }),
      ),
    );
  }

  replaceClusterAllowlist(
    name: string,
    clusters: string[],
    resourceVersion: string,
  ): Promise<OrganizationResource> {
    const body = {
      metadata: { resourceVersion },
      spec: { clusterAllowlist: clusters },
    };
    return call(`PATCH organization ${name}`, () =>
      this.kube.custom.patchClusterCustomObject(
        { ...ORGANIZATIONS, name, body },
        this.merge(),
      ),
    );
  }

  listProducts(namespace?: string): Promise<ProductResource[]> {
    return this.list('products', PRODUCTS, namespace);
  }

  getProduct(
    namespace: string,
    name: string,
  ): Promise<ProductResource | undefined> {
    return orUndefined(
      call(`GET product ${namespace}/${name}`, () =>
        this.kube.custom.getNamespacedCustomObject({
          ...PRODUCTS,
          namespace,
          name,
        }),
      ),
    );
  }

  replaceZones(
    namespace: string,
    name: string,
    zones: ProductZone[],
    resourceVersion: string,
  ): Promise<ProductResource> {
    const body = {
      metadata: { resourceVersion },
      spec: { delivery: { zones } },
    };
    return call(`PATCH product ${namespace}/${name}`, () =>
      this.kube.custom.patchNamespacedCustomObject(
        { ...PRODUCTS, namespace, name, body },
        this.merge(),
      ),
    );
  }

  listReleases(namespace?: string): Promise<ReleaseResource[]> {
    return this.list('releases', RELEASES, namespace);
  }

  patchReleaseStatus(
    namespace: string,
    name: string,
    status: Partial<ReleaseStatus>,
    resourceVersion?: string,
  ): Promise<ReleaseResource> {
    const body: any = { status };
    if (resourceVersion) body.metadata = { resourceVersion };
    return call(`PATCH release ${namespace}/${name} status`, () =>
      this.kube.custom.patchNamespacedCustomObjectStatus(
        { ...RELEASES, namespace, name, body },
        this.merge(),
      ),
    );
  }

  listApplications(
    namespace: string,
    labelSelector?: string,
  ): Promise<ArgoObject[]> {
    return this.list('applications', APPLICATIONS, namespace, labelSelector);
  }

  listAppProjects(namespace: string): Promise<ArgoObject[]> {
    return this.list('appprojects', APP_PROJECTS, namespace);
  }
}

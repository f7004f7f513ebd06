import type {
  OrganizationResource,
  ProductResource,
  ReleaseStatus,
} from '@infrared-clusters/plugin-infrared-common';
import type { KubeClient } from '@internal/devenv';

/** Infrared's API group on the management cluster. */
export const INFRARED_API = '/apis/infrared.darkshift.io/v1alpha1';

const MERGE = 'application/merge-patch+json';

/**
 * What placement reads, written as an administrator would (kubectl) on the management cluster: an
 * organization with its namespace, workload Clusters with a Registered condition (as the clusters
 * pass leaves it; no pass runs in these tests), Products and Releases with a status.
 */
export function placementObjects(admin: KubeClient) {
  const merge = (url: string, body: unknown) =>
    admin.must('PATCH', url, body, [], MERGE);
  const setRegistered = (cluster: string, status: 'True' | 'False') =>
    merge(`${INFRARED_API}/clusters/${cluster}/status`, {
      status: {
        conditions: [
          {
            type: 'Registered',
            status,
            reason: status === 'True' ? 'Registered' : 'WaitingForConnected',
            message: status === 'True' ? 'registered' : 'not connected yet',
            lastTransitionTime: new Date()
              .toISOString()
              .replace(/\.\d+Z$/, 'Z'),
          },
        ],
      },
    });
  return {
    merge,
    setRegistered,
    /** An Organization and its namespace (`ir-org-<name>`, which no controller makes here). */
    async createOrganization(
      name: string,
      spec: Partial<OrganizationResource['spec']> = {},
    ) {
      await admin.must('POST', `${INFRARED_API}/organizations`, {
        apiVersion: 'infrared.darkshift.io/v1alpha1',
        kind: 'Organization',
        metadata: { name },
        spec: { displayName: name, ...spec },
      });
      await admin.must('POST', '/api/v1/namespaces', {
        apiVersion: 'v1',
        kind: 'Namespace',
        metadata: { name: `ir-org-${name}` },
      });
    },
    /** A workload Cluster, Registered (True) or not yet (False). */
    async createCluster(name: string, registered: 'True' | 'False' = 'True') {
      await admin.must('POST', `${INFRARED_API}/clusters`, {
        apiVersion: 'infrared.darkshift.io/v1alpha1',
        kind: 'Cluster',
        metadata: { name },
        spec: { type: 'workload', provider: 'local' },
      });
      await setRegistered(name, registered);
    },
    /** A Product with one repo of its name and these zones. */
    async createProduct(
      namespace: string,
      name: string,
      zones: NonNullable<ProductResource['spec']['delivery']>['zones'],
      displayName = name,
    ) {
      await admin.must(
        'POST',
        `${INFRARED_API}/namespaces/${namespace}/products`,
        {
          apiVersion: 'infrared.darkshift.io/v1alpha1',
          kind: 'Product',
          metadata: { name, namespace },
          spec: { displayName, repos: [{ name }], delivery: { zones } },
        },
      );
    },
    /** A Release v1.0.0 of `product` with this status. */
    async createRelease(
      namespace: string,
      name: string,
      product: string,
      status: Partial<ReleaseStatus>,
    ) {
      const releases = `${INFRARED_API}/namespaces/${namespace}/releases`;
      await admin.must('POST', releases, {
        apiVersion: 'infrared.darkshift.io/v1alpha1',
        kind: 'Release',
        metadata: { name, namespace },
        spec: { productRef: { name: product }, version: 'v1.0.0' },
      });
      await merge(`${releases}/${name}/status`, { status });
    },
  };
}

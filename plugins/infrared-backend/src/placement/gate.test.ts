import {
  decideZonePlacement,
  type ProductResource,
  type ProductZone,
  type ReleaseResource,
} from '@infrared-clusters/plugin-infrared-common';
import { parse, parseAllDocuments } from 'yaml';
import { InvalidApplicationError } from './application';
import { promotionChange } from './gate';
import type { ReleasePlan } from './plan';
import { InvalidZoneContentError } from './zoneContent';

const NS = 'ir-org-acme';
const repo = {
  repoUrl: 'git://127.0.0.1:9418/gitops.git',
  defaultBranch: 'main',
};

function plan(zone: ProductZone, productName = 'checkout'): ReleasePlan {
  const product: ProductResource = {
    apiVersion: 'infrared.darkshift.io/v1alpha1',
    kind: 'Product',
    metadata: { name: productName, namespace: NS },
    spec: { displayName: 'Checkout', repos: [{ name: 'checkout' }] },
  };
  const release: ReleaseResource = {
    apiVersion: 'infrared.darkshift.io/v1alpha1',
    kind: 'Release',
    metadata: { name: 'checkout-v0-1-0', namespace: NS },
    spec: { productRef: { name: productName }, version: 'v0.1.0' },
    status: {
      phase: 'Promoting',
      version: 'v0.1.0',
      image: 'registry.example/acme/checkout:v0.1.0',
    },
  };
  const placement = decideZonePlacement({
    zone,
    productNamespace: NS,
    org: { name: 'acme', clusterAllowlist: ['edge-demo'] },
    cluster: zone.cluster
      ? { name: zone.cluster, registered: true, inCluster: false }
      : undefined,
    managementCluster: 'infrared-mgmt',
    project: 'products',
  });
  return {
    release,
    product,
    status: release.status!,
    promote: { zone, placement },
  };
}

describe('the gitops change that promotes a zone', () => {
  it.each<[string, ProductZone, string, string]>([
    [
      'a zone on the management cluster',
      { name: 'checkout-rc' },
      'registry/clusters/infrared-mgmt/components/product-checkout-rc.yaml',
      'products/checkout/zones/checkout-rc/release.yaml',
    ],
    [
      'a release zone on a workload cluster',
      { name: 'checkout-prod', cluster: 'edge-demo', environment: 'release' },
      'registry/clusters/edge-demo/components/product-checkout-prod.yaml',
      'products/checkout/zones/checkout-prod/release.yaml',
    ],
  ])(
    'writes the Application and, in the same change, what it syncs: %s',
    (_name, zone, appPath, contentPath) => {
      const change = promotionChange(plan(zone), repo);
      expect(change.key).toBe(`promote-${NS}-checkout-v0-1-0-${zone.name}`);
      expect(Object.keys(change.files).sort()).toEqual(
        [appPath, contentPath].sort(),
      );
      const app = parse(change.files[appPath]);
      // The Application syncs the directory the content is in.
      expect(`${app.spec.source.path}/release.yaml`).toBe(contentPath);
      const [configMap, service] = parseAllDocuments(
        change.files[contentPath],
      ).map(d => d.toJSON());
      expect(configMap.data).toMatchObject({
        release: `${NS}/checkout-v0-1-0`,
        version: 'v0.1.0',
        image: 'registry.example/acme/checkout:v0.1.0',
        zone: zone.name,
      });
      expect(service.kind).toBe('Service');
      expect(change.body).toContain(`- Content it syncs: \`${contentPath}\``);
    },
  );

  it.each<[string, ReleasePlan, new (...a: any[]) => Error]>([
    [
      "content Kubernetes' naming refuses",
      plan({ name: 'checkout-rc' }, 'shop.checkout'),
      InvalidZoneContentError,
    ],
    [
      "an Application Argo CD's schema refuses",
      (() => {
        const p = plan({ name: 'checkout-rc' });
        (p.promote!.placement as any).destination = { name: 42 };
        return p;
      })(),
      InvalidApplicationError,
    ],
  ])('throws, writing nothing, for %s', (_name, p, error) => {
    expect(() => promotionChange(p, repo)).toThrow(error);
  });
});

import {
  decideZonePlacement,
  type ProductZone,
} from '@infrared-clusters/plugin-infrared-common';
import { parse } from 'yaml';
import {
  buildZoneApplication,
  InvalidApplicationError,
  renderZoneApplication,
  zoneSourcePath,
  type ZoneApplicationOptions,
} from './application';
import { argoApplicationValidator } from './argoModels';

const product = { namespace: 'ir-org-acme', name: 'checkout' };
const release = {
  namespace: 'ir-org-acme',
  name: 'checkout-v1',
  version: 'v1.2.3',
};

function options(zone: ProductZone, inCluster = false): ZoneApplicationOptions {
  const placement = decideZonePlacement({
    zone,
    productNamespace: product.namespace,
    org: { name: 'acme', clusterAllowlist: [zone.cluster ?? ''] },
    cluster: zone.cluster
      ? { name: zone.cluster, registered: true, inCluster }
      : undefined,
    managementCluster: 'infrared-mgmt',
    project: 'products',
  });
  return {
    product,
    zone,
    placement,
    release,
    repoUrl: 'file:///tmp/gitops.git',
    branch: 'main',
  };
}

describe('the zone Application', () => {
  it.each<[string, ProductZone, boolean, object, string]>([
    [
      'a kubeconfig cluster, by name',
      { name: 'checkout-prod', cluster: 'edge-demo' },
      false,
      { name: 'edge-demo', namespace: 'checkout-prod' },
      'products/checkout/zones/checkout-prod',
    ],
    [
      'an inCluster workload cluster, by the in-cluster server',
      { name: 'checkout-prod', cluster: 'local-zones' },
      true,
      { server: 'https://kubernetes.default.svc', namespace: 'checkout-prod' },
      'products/checkout/zones/checkout-prod',
    ],
    [
      'the management cluster',
      { name: 'checkout-rc' },
      false,
      { server: 'https://kubernetes.default.svc', namespace: 'checkout-rc' },
      'products/checkout/zones/checkout-rc',
    ],
    [
      'a custom values path sets the source directory',
      { name: 'checkout-rc', valuesPath: 'zones/rc/values.yaml' },
      false,
      { server: 'https://kubernetes.default.svc', namespace: 'checkout-rc' },
      'zones/rc',
    ],
    [
      'a values file at the root keeps the default directory',
      { name: 'checkout-rc', valuesPath: 'values.yaml' },
      false,
      { server: 'https://kubernetes.default.svc', namespace: 'checkout-rc' },
      'products/checkout/zones/checkout-rc',
    ],
  ])('%s', (_name, zone, inCluster, destination, sourcePath) => {
    const app = buildZoneApplication(options(zone, inCluster));
    expect(app.metadata.name).toBe(`product-${zone.name}`);
    expect(app.metadata.namespace).toBe('argocd');
    expect(app.spec.project).toBe('products');
    expect(app.spec.destination).toEqual(destination);
    expect(app.spec.source).toEqual({
      repoURL: 'file:///tmp/gitops.git',
      targetRevision: 'main',
      path: sourcePath,
    });
    expect(zoneSourcePath('checkout', zone)).toBe(sourcePath);
    expect(app.metadata.labels).toMatchObject({
      'app.kubernetes.io/managed-by': 'infrared',
      'infrared.darkshift.io/product': 'checkout',
      'infrared.darkshift.io/product-namespace': 'ir-org-acme',
      'infrared.darkshift.io/zone': zone.name,
    });
    expect(app.metadata.annotations).toEqual({
      'infrared.darkshift.io/release': 'ir-org-acme/checkout-v1',
      'infrared.darkshift.io/version': 'v1.2.3',
    });
    expect(argoApplicationValidator()(app)).toBeUndefined();
  });

  it('renders YAML that parses back to the validated object', () => {
    const opts = options({ name: 'checkout-prod', cluster: 'edge-demo' });
    const text = renderZoneApplication(opts);
    expect(
      text.startsWith('# Zone checkout-prod of Product ir-org-acme/checkout'),
    ).toBe(true);
    expect(parse(text)).toEqual(buildZoneApplication(opts));
  });

  it('is the same text for the same inputs (one change per zone)', () => {
    const opts = options({ name: 'checkout-prod', cluster: 'edge-demo' });
    expect(renderZoneApplication(opts)).toBe(renderZoneApplication(opts));
  });

  it("refuses what Argo CD's schema refuses, naming the Application", () => {
    const opts = options({ name: 'checkout-prod', cluster: 'edge-demo' });
    const broken = {
      ...opts,
      placement: { ...opts.placement, destination: { name: 42 } as any },
    };
    expect(() => renderZoneApplication(broken)).toThrow(
      InvalidApplicationError,
    );
    expect(() => renderZoneApplication(broken)).toThrow(
      /Application product-checkout-prod does not match Argo CD's schema: .*destination\/name must be string/,
    );
  });

  it('the validator is the real schema: it refuses an Application without a destination', () => {
    expect(
      argoApplicationValidator()({
        apiVersion: 'argoproj.io/v1alpha1',
        kind: 'Application',
        metadata: { name: 'x' },
        spec: { project: 'p' },
      }),
    ).toMatch(/destination/);
  });
});

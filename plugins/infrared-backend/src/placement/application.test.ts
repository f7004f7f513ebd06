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
  it.each<[string, ProductZone, boolean, object, string, string]>([
    [
      'a kubeconfig cluster, by name',
      { name: 'checkout-prod', cluster: 'edge-demo' },
      false,
      { name: 'edge-demo', namespace: 'checkout-prod' },
      'products/checkout/zones/checkout-prod',
      'values.yaml',
    ],
    [
      'an inCluster workload cluster, by the in-cluster server',
      { name: 'checkout-prod', cluster: 'local-zones' },
      true,
      { server: 'https://kubernetes.default.svc', namespace: 'checkout-prod' },
      'products/checkout/zones/checkout-prod',
      'values.yaml',
    ],
    [
      'the management cluster',
      { name: 'checkout-rc' },
      false,
      { server: 'https://kubernetes.default.svc', namespace: 'checkout-rc' },
      'products/checkout/zones/checkout-rc',
      'values.yaml',
    ],
    [
      'a custom values path sets the source directory',
      { name: 'checkout-rc', valuesPath: 'zones/rc/values.yaml' },
      false,
      { server: 'https://kubernetes.default.svc', namespace: 'checkout-rc' },
      'zones/rc',
      'values.yaml',
    ],
    [
      'a custom values file name is what the directory source excludes',
      { name: 'checkout-rc', valuesPath: 'zones/rc/rc-values.yml' },
      false,
      { server: 'https://kubernetes.default.svc', namespace: 'checkout-rc' },
      'zones/rc',
      'rc-values.yml',
    ],
    [
      "glob characters of the values file name are literal in Argo CD's exclude",
      { name: 'checkout-rc', valuesPath: 'zones/rc/values[1]*.yaml' },
      false,
      { server: 'https://kubernetes.default.svc', namespace: 'checkout-rc' },
      'zones/rc',
      'values\\[1\\]\\*.yaml',
    ],
    [
      'a values file at the root keeps the default directory',
      { name: 'checkout-rc', valuesPath: 'values.yaml' },
      false,
      { server: 'https://kubernetes.default.svc', namespace: 'checkout-rc' },
      'products/checkout/zones/checkout-rc',
      'values.yaml',
    ],
  ])('%s', (_name, zone, inCluster, destination, sourcePath, valuesFile) => {
    const app = buildZoneApplication(options(zone, inCluster));
    expect(app.metadata.name).toBe(`product-${zone.name}`);
    expect(app.metadata.namespace).toBe('argocd');
    expect(app.spec.project).toBe('products');
    expect(app.spec.destination).toEqual(destination);
    expect(app.spec.source).toEqual({
      name: 'ir-org-acme/checkout-v1',
      repoURL: 'file:///tmp/gitops.git',
      targetRevision: 'main',
      path: sourcePath,
      directory: { exclude: valuesFile },
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

  it('a new Release changes the source (Argo CD compares again at once), the same Release does not', () => {
    const opts = options({ name: 'checkout-prod', cluster: 'edge-demo' });
    const next = buildZoneApplication({
      ...opts,
      release: { ...release, name: 'checkout-v2', version: 'v1.3.0' },
    });
    expect(next.spec.source.name).toBe('ir-org-acme/checkout-v2');
    expect(next.spec.source).not.toEqual(
      buildZoneApplication(opts).spec.source,
    );
    expect(buildZoneApplication(opts).spec.source).toEqual(
      buildZoneApplication(opts).spec.source,
    );
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

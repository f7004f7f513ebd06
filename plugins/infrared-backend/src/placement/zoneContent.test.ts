import type { ProductZone } from '@infrared-clusters/plugin-infrared-common';
import { parseAllDocuments } from 'yaml';
import { zoneObjectValidator } from './argoModels';
import {
  buildZoneContent,
  InvalidZoneContentError,
  renderZoneContent,
  zoneContentPath,
  type ZoneContentOptions,
} from './zoneContent';

const product = { namespace: 'ir-org-acme', name: 'checkout' };
const release = {
  namespace: 'ir-org-acme',
  name: 'checkout-v0-1-0',
  version: 'v0.1.0',
};
const options = (
  zone: ProductZone,
  over: Partial<ZoneContentOptions> = {},
): ZoneContentOptions => ({ product, zone, release, ...over });
const docs = (text: string) =>
  parseAllDocuments(text).map(d => d.toJSON() as any);

describe("a zone's content", () => {
  it.each<[string, ProductZone, string]>([
    [
      'the default directory',
      { name: 'checkout-rc' },
      'products/checkout/zones/checkout-rc/release.yaml',
    ],
    [
      'a release zone on a workload cluster',
      { name: 'checkout-prod', cluster: 'edge-demo', environment: 'release' },
      'products/checkout/zones/checkout-prod/release.yaml',
    ],
    [
      "the folder of a custom values file (the Application's source path)",
      { name: 'checkout-rc', valuesPath: 'zones/rc/values.yaml' },
      'zones/rc/release.yaml',
    ],
    [
      'a values file at the root keeps the default directory',
      { name: 'checkout-rc', valuesPath: 'values.yaml' },
      'products/checkout/zones/checkout-rc/release.yaml',
    ],
  ])('is written beside the values file: %s', (_name, zone, path) => {
    expect(zoneContentPath('checkout', zone)).toBe(path);
  });

  it.each<[string, ZoneContentOptions, Record<string, string>]>([
    [
      'a pre-release zone, version only',
      options({ name: 'checkout-rc' }),
      {
        product: 'ir-org-acme/checkout',
        zone: 'checkout-rc',
        environment: 'pre-release',
        release: 'ir-org-acme/checkout-v0-1-0',
        version: 'v0.1.0',
      },
    ],
    [
      'a release zone with the image and commit the build recorded',
      options(
        { name: 'checkout-prod', cluster: 'edge-demo', environment: 'release' },
        {
          release: {
            ...release,
            image: 'registry.example/acme/checkout@sha256:0123',
            commit: 'a'.repeat(40),
          },
        },
      ),
      {
        product: 'ir-org-acme/checkout',
        zone: 'checkout-prod',
        environment: 'release',
        release: 'ir-org-acme/checkout-v0-1-0',
        version: 'v0.1.0',
        image: 'registry.example/acme/checkout@sha256:0123',
        commit: 'a'.repeat(40),
      },
    ],
    [
      'a Release without a version yet',
      options(
        { name: 'checkout-rc' },
        { release: { namespace: 'ir-org-acme', name: 'next' } },
      ),
      {
        product: 'ir-org-acme/checkout',
        zone: 'checkout-rc',
        environment: 'pre-release',
        release: 'ir-org-acme/next',
      },
    ],
  ])(
    'is a ConfigMap recording the Release and a ClusterIP Service: %s',
    (_name, opts, data) => {
      const [configMap, service] = docs(renderZoneContent(opts));
      expect(configMap).toEqual({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: {
          name: 'checkout-release',
          labels: expect.objectContaining({
            'app.kubernetes.io/managed-by': 'infrared',
            'app.kubernetes.io/name': 'checkout',
            'app.kubernetes.io/instance': opts.zone.name,
          }),
        },
        data,
      });
      // No namespace: the objects go to the Application's destination namespace, the zone.
      expect(service.metadata).toEqual({
        name: 'checkout',
        labels: configMap.metadata.labels,
      });
      expect(service.spec).toEqual({
        type: 'ClusterIP',
        selector: {
          'app.kubernetes.io/name': 'checkout',
          'app.kubernetes.io/instance': opts.zone.name,
        },
        ports: [
          { name: 'http', port: 80, targetPort: 'http', protocol: 'TCP' },
        ],
      });
      for (const o of [configMap, service]) {
        expect(zoneObjectValidator()(o)).toBeUndefined();
      }
      expect(docs(renderZoneContent(opts))).toEqual(buildZoneContent(opts));
    },
  );

  it('changes with each Release and is the same text for the same one', () => {
    const zone = { name: 'checkout-rc' };
    const first = renderZoneContent(options(zone));
    expect(renderZoneContent(options(zone))).toBe(first);
    const next = renderZoneContent(
      options(zone, {
        release: { ...release, name: 'checkout-v0-2-0', version: 'v0.2.0' },
      }),
    );
    expect(next).not.toBe(first);
    expect(docs(next)[0].data.version).toBe('v0.2.0');
    expect(docs(next)[0].metadata.labels['app.kubernetes.io/version']).toBe(
      'v0.2.0',
    );
  });

  it.each<[string, ZoneContentOptions, RegExp]>([
    [
      'a Product name that is not a Service name',
      options(
        { name: 'checkout-rc' },
        { product: { namespace: 'ir-org-acme', name: 'shop.checkout' } },
      ),
      /products\/shop.checkout\/zones\/checkout-rc\/release.yaml is not valid: the Service is named after the Product, and "shop.checkout" is not a DNS-1035 label/,
    ],
    [
      'a values file where the content goes',
      options({ name: 'checkout-rc', valuesPath: 'zones/rc/release.yaml' }),
      /valuesPath "zones\/rc\/release.yaml" is the file the release gate writes the zone's content to/,
    ],
  ])('is refused, naming the file: %s', (_name, opts, message) => {
    expect(() => renderZoneContent(opts)).toThrow(InvalidZoneContentError);
    expect(() => renderZoneContent(opts)).toThrow(message);
  });

  it("is refused when Kubernetes' schema refuses an object, naming it", () => {
    const opts = options({ name: 'checkout-rc' });
    expect(() =>
      renderZoneContent(opts, o =>
        (o as any).kind === 'Service'
          ? 'spec/ports/0/port must be integer'
          : undefined,
      ),
    ).toThrow(/Service checkout: spec\/ports\/0\/port must be integer/);
  });

  it("the validator is Kubernetes' schema: it refuses a ConfigMap with a number value and kinds it has no model for", () => {
    const validate = zoneObjectValidator();
    expect(
      validate({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'x' },
        data: { a: 1 },
      }),
    ).toMatch(/data\/a must be string/);
    expect(
      validate({
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: 'x' },
        spec: { ports: [{ port: '80' }] },
      }),
    ).toMatch(/port must be integer/);
    expect(validate({ apiVersion: 'apps/v1', kind: 'Deployment' })).toMatch(
      /kind Deployment is not one of ConfigMap, Service/,
    );
  });
});

import type { ProductResource } from '@infrared-clusters/plugin-infrared-common';
import { ProductClusterProcessor } from './ProductClusterProcessor';
import { ProductClusters, productClusterNames } from './productClusters';

const product = (
  namespace: string,
  name: string,
  clusters: Array<string | undefined>,
): ProductResource => ({
  apiVersion: 'infrared.darkshift.io/v1alpha1',
  kind: 'Product',
  metadata: { name, namespace },
  spec: {
    displayName: name,
    repos: [],
    delivery: {
      zones: clusters.map((cluster, i) => ({
        name: `${name}-z${i}`,
        ...(cluster === undefined ? {} : { cluster }),
      })),
    },
  },
});

describe('productClusterNames', () => {
  it.each([
    { zones: [], expected: [] },
    { zones: ['edge-a'], expected: ['edge-a'] },
    { zones: ['edge-b', 'edge-a', 'edge-b'], expected: ['edge-a', 'edge-b'] },
    { zones: [undefined], expected: ['infrared-mgmt'] },
    { zones: [''], expected: ['infrared-mgmt'] },
    { zones: ['edge-a', undefined], expected: ['edge-a', 'infrared-mgmt'] },
  ])('zones on $zones -> $expected', ({ zones, expected }) => {
    expect(
      productClusterNames(product('ns', 'p', zones), 'infrared-mgmt'),
    ).toEqual(expected);
  });

  it('a Product without delivery places nothing', () => {
    expect(
      productClusterNames(
        { spec: { displayName: 'p', repos: [] } },
        'infrared-mgmt',
      ),
    ).toEqual([]);
  });
});

describe('ProductClusters', () => {
  it('answers every Product from one LIST within the TTL, and lists again after it', async () => {
    let now = 0;
    const listProducts = jest
      .fn()
      .mockResolvedValue([
        product('ir-org-acme', 'checkout', ['edge-a', undefined]),
        product('ir-org-acme', 'cart', ['edge-b']),
      ]);
    const products = new ProductClusters({
      kube: { listProducts },
      managementCluster: 'infrared-mgmt',
      ttlMs: 1000,
      clock: () => now,
    });
    await expect(products.of('ir-org-acme', 'checkout')).resolves.toEqual([
      'edge-a',
      'infrared-mgmt',
    ]);
    await expect(products.of('ir-org-acme', 'cart')).resolves.toEqual([
      'edge-b',
    ]);
    await expect(products.of('ir-org-acme', 'missing')).resolves.toEqual([]);
    expect(listProducts).toHaveBeenCalledTimes(1);
    now = 1000;
    await products.of('ir-org-acme', 'cart');
    expect(listProducts).toHaveBeenCalledTimes(2);
  });

  it('does not keep a failed LIST', async () => {
    const listProducts = jest
      .fn()
      .mockRejectedValueOnce(new Error('LIST products -> 503'))
      .mockResolvedValue([product('ns', 'p', ['edge-a'])]);
    const products = new ProductClusters({
      kube: { listProducts },
      managementCluster: 'infrared-mgmt',
      clock: () => 0,
    });
    await expect(products.of('ns', 'p')).rejects.toThrow('503');
    await expect(products.of('ns', 'p')).resolves.toEqual(['edge-a']);
  });
});

describe('ProductClusterProcessor', () => {
  const entity = (annotations: Record<string, string> = {}) => ({
    apiVersion: 'backstage.io/v1alpha1',
    kind: 'Component',
    metadata: { name: 'checkout', namespace: 'default', annotations },
    spec: { type: 'service', owner: 'team', lifecycle: 'production' },
  });
  const location = { type: 'url', target: 'https://example.test/c.yaml' };
  const run = async (
    annotations: Record<string, string> | undefined,
    clusters: string[],
  ) => {
    const of = jest.fn().mockResolvedValue(clusters);
    const emit = jest.fn();
    const e = entity(annotations);
    const out = await new ProductClusterProcessor({ of }).postProcessEntity(
      e,
      location,
      emit,
    );
    expect(out).toBe(e);
    return { of, relations: emit.mock.calls.map(([r]) => r.relation) };
  };
  const ref = (kind: string, name: string) => ({
    kind,
    namespace: 'default',
    name,
  });

  it('a Product entity dependsOn the Resource of each Cluster its zones run on, and the Resource is its dependencyOf', async () => {
    const { of, relations } = await run(
      { 'infrared.darkshift.io/product': 'ir-org-acme/checkout' },
      ['edge-a', 'infrared-mgmt'],
    );
    expect(of).toHaveBeenCalledWith('ir-org-acme', 'checkout');
    expect(relations).toEqual([
      {
        source: ref('Component', 'checkout'),
        type: 'dependsOn',
        target: ref('Resource', 'edge-a'),
      },
      {
        source: ref('Resource', 'edge-a'),
        type: 'dependencyOf',
        target: ref('Component', 'checkout'),
      },
      {
        source: ref('Component', 'checkout'),
        type: 'dependsOn',
        target: ref('Resource', 'infrared-mgmt'),
      },
      {
        source: ref('Resource', 'infrared-mgmt'),
        type: 'dependencyOf',
        target: ref('Component', 'checkout'),
      },
    ]);
  });

  it.each([
    ['no annotation', undefined],
    ['a malformed annotation', { 'infrared.darkshift.io/product': 'checkout' }],
  ])('%s: no relation and no read', async (_what, annotations) => {
    const { of, relations } = await run(annotations, ['edge-a']);
    expect(of).not.toHaveBeenCalled();
    expect(relations).toEqual([]);
  });
});

describe("ProductClusterProcessor: a Product entity's Kubernetes tab (issue 23.4)", () => {
  const processor = new ProductClusterProcessor({ of: jest.fn() });
  const entity = (annotations: Record<string, string>) => ({
    apiVersion: 'backstage.io/v1alpha1',
    kind: 'Component',
    metadata: { name: 'checkout', namespace: 'default', annotations },
    spec: { type: 'service', owner: 'team', lifecycle: 'production' },
  });

  it("gets the label selector of its zones' objects, as the release gate labels them", async () => {
    const out = await processor.preProcessEntity(
      entity({ 'infrared.darkshift.io/product': 'ir-org-acme/checkout' }),
    );
    expect(out.metadata.annotations).toEqual({
      'infrared.darkshift.io/product': 'ir-org-acme/checkout',
      'backstage.io/kubernetes-label-selector':
        'app.kubernetes.io/managed-by=infrared,infrared.darkshift.io/product=checkout',
    });
  });

  it.each<Record<string, string>>([
    { 'backstage.io/kubernetes-id': 'checkout' },
    { 'backstage.io/kubernetes-label-selector': 'app=checkout' },
    { 'infrared.darkshift.io/product': 'checkout' },
    {},
  ])('keeps the entity as it is with %j', async annotations => {
    const given = entity({
      'infrared.darkshift.io/product': 'ir-org-acme/checkout',
      ...annotations,
    });
    if (Object.keys(annotations).length === 0) {
      delete (given.metadata.annotations as any)[
        'infrared.darkshift.io/product'
      ];
    }
    await expect(processor.preProcessEntity(given)).resolves.toBe(given);
  });
});

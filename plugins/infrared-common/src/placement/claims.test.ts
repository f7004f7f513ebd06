import { zoneCollisions, zoneClaimKey } from './claims';
import { decideZonePlacement } from './decision';
import { zoneApplicationName, zoneApplicationPath } from './paths';
import type { ProductResource, ProductZone } from './types';

function product(
  namespace: string,
  name: string,
  zones: ProductZone[],
  creationTimestamp?: string,
): ProductResource {
  return {
    apiVersion: 'infrared.darkshift.io/v1alpha1',
    kind: 'Product',
    metadata: { namespace, name, creationTimestamp },
    spec: { displayName: name, delivery: { zones } },
  } as ProductResource;
}

const MGMT = 'infrared-mgmt';
const shop = product(
  'ir-org-acme',
  'shop',
  [{ name: 'prod', cluster: 'edge' }],
  '2026-01-01T00:00:00Z',
);
const blog = product(
  'ir-org-beta',
  'blog',
  [{ name: 'prod', cluster: 'edge' }],
  '2026-02-01T00:00:00Z',
);

describe('the path rule does not tell two Products apart', () => {
  it('gives same-named zones of two Products the same Application name and, on one cluster, the same file', () => {
    const [a] = shop.spec.delivery!.zones!;
    const [b] = blog.spec.delivery!.zones!;
    expect(zoneApplicationName(a)).toBe(zoneApplicationName(b));
    expect(zoneApplicationPath(a, MGMT)).toBe(
      'registry/clusters/edge/components/product-prod.yaml',
    );
    expect(zoneApplicationPath(b, MGMT)).toBe(zoneApplicationPath(a, MGMT));
  });
});

describe('zoneCollisions', () => {
  it.each<[string, ProductResource[], Record<string, string>]>([
    ['one Product: nothing', [shop], {}],
    [
      'same zone name, same cluster: the younger Product is refused',
      [blog, shop],
      { 'ir-org-beta/blog/prod': 'zoneName ir-org-acme/shop prod' },
    ],
    [
      // the Application product-prod lives in argocd on the management cluster for both
      'same zone name on different clusters: still one Application name',
      [
        shop,
        product(
          'ir-org-beta',
          'blog',
          [{ name: 'prod', cluster: 'other' }],
          '2026-03-01T00:00:00Z',
        ),
      ],
      { 'ir-org-beta/blog/prod': 'zoneName ir-org-acme/shop prod' },
    ],
    [
      'same zone name, both on the management cluster',
      [
        product('b', 'two', [{ name: 'rc' }], '2026-01-02T00:00:00Z'),
        product('a', 'one', [{ name: 'rc' }], '2026-01-02T00:00:00Z'),
      ],
      { 'b/two/rc': 'zoneName a/one rc' },
    ],
    [
      'different zone names, one applicationPath',
      [
        shop,
        product(
          'ir-org-beta',
          'blog',
          [
            {
              name: 'blog-prod',
              cluster: 'edge',
              applicationPath:
                'registry/clusters/edge/components/product-prod.yaml',
            },
          ],
          '2026-03-01T00:00:00Z',
        ),
      ],
      { 'ir-org-beta/blog/blog-prod': 'applicationPath ir-org-acme/shop prod' },
    ],
    [
      'different zone names and paths: nothing',
      [
        shop,
        product('ir-org-beta', 'blog', [
          { name: 'blog-prod', cluster: 'edge' },
        ]),
      ],
      {},
    ],
  ])('%s', (_name, products, expected) => {
    const got = zoneCollisions(products, MGMT);
    expect(
      Object.fromEntries(
        [...got].map(([k, c]) => [
          k,
          `${c.on} ${c.product.namespace}/${c.product.name} ${c.zone}`,
        ]),
      ),
    ).toEqual(expected);
  });

  it('keeps the zone for the Product whose Application Argo CD already has, even a younger one', () => {
    const got = zoneCollisions(
      [shop, blog],
      MGMT,
      new Map([['product-prod', { namespace: 'ir-org-beta', name: 'blog' }]]),
    );
    expect([...got.keys()]).toEqual(['ir-org-acme/shop/prod']);
    expect(got.get(zoneClaimKey(shop, { name: 'prod' }))?.product).toEqual({
      namespace: 'ir-org-beta',
      name: 'blog',
    });
  });

  it('the decision Fails with ZoneTaken, naming the other Product and what to do', () => {
    const collision = zoneCollisions([shop, blog], MGMT).get(
      zoneClaimKey(blog, { name: 'prod' }),
    );
    const placement = decideZonePlacement({
      zone: { name: 'prod', cluster: 'edge' },
      productNamespace: 'ir-org-beta',
      org: { name: 'beta', clusterAllowlist: ['edge'] },
      cluster: { name: 'edge', registered: true, inCluster: false },
      managementCluster: MGMT,
      project: 'products',
      collision,
    });
    expect(placement.decision).toBe('Fails');
    expect(placement.reason).toBe('ZoneTaken');
    expect(placement.message).toBe(
      "zone prod is taken by zone prod of Product ir-org-acme/shop: its Argo CD Application product-prod (file registry/clusters/edge/components/product-prod.yaml) and its namespace prod are that Product's, and zone names are unique across Products on one management cluster; rename this zone",
    );
  });
});

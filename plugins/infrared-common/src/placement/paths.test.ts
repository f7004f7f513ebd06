import {
  applicationPathProblem,
  zoneApplicationPath,
  zoneNameProblem,
  zoneValuesPath,
} from './paths';

describe('zone paths', () => {
  it.each([
    [
      { name: 'checkout-prod', cluster: 'edge-demo' },
      'registry/clusters/edge-demo/components/product-checkout-prod.yaml',
    ],
    [
      { name: 'checkout-rc' },
      'registry/clusters/infrared-mgmt/components/product-checkout-rc.yaml',
    ],
    [
      { name: 'checkout-rc', cluster: '' },
      'registry/clusters/infrared-mgmt/components/product-checkout-rc.yaml',
    ],
    [{ name: 'checkout-rc', applicationPath: 'x/y.yaml' }, 'x/y.yaml'],
  ])('application path of %j', (zone, path) => {
    expect(zoneApplicationPath(zone, 'infrared-mgmt')).toBe(path);
  });

  it('values path defaults under products/<product>/zones/<zone>', () => {
    expect(zoneValuesPath('checkout', { name: 'checkout-rc' })).toBe(
      'products/checkout/zones/checkout-rc/values.yaml',
    );
    expect(
      zoneValuesPath('checkout', { name: 'checkout-rc', valuesPath: 'v.yaml' }),
    ).toBe('v.yaml');
  });
});

describe('applicationPathProblem', () => {
  it.each([
    ['registry/clusters/edge/components/product-a.yaml', undefined],
    ['apps/checkout.yml', undefined],
    ['', /is empty/],
    ['/abs/app.yaml', /without a leading \//],
    ['a\\b.yaml', /forward slashes/],
    ['a//b.yaml', /empty, "." or ".." segments/],
    ['a/../b.yaml', /empty, "." or ".." segments/],
    ['./b.yaml', /empty, "." or ".." segments/],
    ['a/b.json', /\.yaml or \.yml file/],
    ['a/b.yaml/', /empty/],
    ['a/b\n.yaml', /control characters/],
    ['registry/clusters/mgmt/components/cluster-edge.yaml', /registration/],
  ])('%j -> %s', (path, expected) => {
    const problem = applicationPathProblem(path);
    expect(problem ?? 'valid').toMatch(expected ?? /^valid$/);
  });
});

describe('zoneNameProblem', () => {
  it.each([
    ['checkout-prod', undefined],
    ['a', undefined],
    ['x'.repeat(63), undefined],
    ['x'.repeat(64), /64 characters/],
    ['Checkout', /not a namespace name/],
    ['-a', /not a namespace name/],
    ['', /no name/],
  ])('%j -> %s', (name, expected) => {
    const problem = zoneNameProblem(name);
    expect(problem ?? 'valid').toMatch(expected ?? /^valid$/);
  });
});

import { parseProductRef } from './annotation';

describe('parseProductRef', () => {
  it.each<[unknown, object]>([
    ['ir-org-acme/checkout', { namespace: 'ir-org-acme', name: 'checkout' }],
    [
      ' ir-org-acme/checkout.v2 ',
      { namespace: 'ir-org-acme', name: 'checkout.v2' },
    ],
    [
      'checkout',
      {
        error: expect.stringMatching(
          /must be <namespace>\/<name>, like ir-org-acme\/checkout, not "checkout"/,
        ),
      },
    ],
    ['a/b/c', { error: expect.stringMatching(/not "a\/b\/c"/) }],
    [
      'IR/checkout',
      { error: expect.stringMatching(/"IR" is not a namespace name/) },
    ],
    [
      'ns/Checkout',
      { error: expect.stringMatching(/"Checkout" is not a resource name/) },
    ],
    ['', { error: expect.stringMatching(/must be/) }],
    [undefined, { error: expect.stringMatching(/must be/) }],
  ])('%j', (value, expected) => {
    expect(parseProductRef(value)).toEqual(expected);
  });
});

import { controllerReferenceTo, isOwnedBy } from './ownerReference';

const cluster = {
  apiVersion: 'infrared.darkshift.io/v1alpha1',
  kind: 'Cluster',
  metadata: { name: 'edge-1', uid: '1b4e28ba-2fa1-11d2-883f-0016d3cca427' },
};

describe('controllerReferenceTo', () => {
  it('builds a controller reference that blocks owner deletion', () => {
    expect(controllerReferenceTo(cluster)).toEqual({
      apiVersion: 'infrared.darkshift.io/v1alpha1',
      kind: 'Cluster',
      name: 'edge-1',
      uid: '1b4e28ba-2fa1-11d2-883f-0016d3cca427',
      controller: true,
      blockOwnerDeletion: true,
    });
  });

  it('refuses an owner that was never stored', () => {
    expect(() =>
      controllerReferenceTo({ ...cluster, metadata: { name: 'edge-1' } }),
    ).toThrow(/has no uid/);
  });
});

describe('isOwnedBy', () => {
  it('matches by uid only', () => {
    expect(isOwnedBy([{ uid: cluster.metadata.uid }], cluster)).toBe(true);
    expect(isOwnedBy([{ uid: 'another' }], cluster)).toBe(false);
    expect(isOwnedBy(undefined, cluster)).toBe(false);
  });
});

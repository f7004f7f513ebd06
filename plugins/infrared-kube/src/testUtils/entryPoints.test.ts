import * as production from '@infrared-clusters/infrared-kube';
import * as testUtils from '@infrared-clusters/infrared-kube/testUtils';

describe('entry points', () => {
  it('keeps the in-memory fake out of the production exports', () => {
    expect(Object.keys(production)).not.toContain('InMemoryManagementApi');
    expect(Object.keys(production)).not.toContain('matchesLabelSelector');
    expect(typeof production.managementApi).toBe('function');
  });

  it('offers it under /testUtils', () => {
    expect(Object.keys(testUtils).sort()).toEqual([
      'InMemoryManagementApi',
      'matchesLabelSelector',
    ]);
    expect(new testUtils.InMemoryManagementApi().counter.total).toBe(0);
  });
});

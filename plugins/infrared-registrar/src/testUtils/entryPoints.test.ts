import * as production from '@infrared-clusters/infrared-registrar';
import * as testUtils from '@infrared-clusters/infrared-registrar/testUtils';

describe('entry points', () => {
  it('keeps the in-memory fake out of the production exports', () => {
    expect(Object.keys(production)).not.toContain('MemoryRegistrarApi');
    expect(typeof production.runRegistrarPass).toBe('function');
  });

  it('offers it under /testUtils', () => {
    expect(Object.keys(testUtils)).toEqual(['MemoryRegistrarApi']);
    expect(new testUtils.MemoryRegistrarApi().counter.total).toBe(0);
  });
});

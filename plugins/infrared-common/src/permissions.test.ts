import { isResourcePermission } from '@backstage/plugin-permission-common';
import { infraredPermissions } from './permissions';

describe('infraredPermissions', () => {
  it('have unique names in the infrared.cluster namespace', () => {
    const names = infraredPermissions.map(p => p.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names.every(n => n.startsWith('infrared.cluster.'))).toBe(true);
  });

  it('are basic permissions that a policy can decide without a resource', () => {
    expect(infraredPermissions.some(p => isResourcePermission(p))).toBe(false);
  });
});

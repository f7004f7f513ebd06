import { isResourcePermission } from '@backstage/plugin-permission-common';
import { infraredPermissions } from './permissions';

describe('infraredPermissions', () => {
  it('have unique names in the infrared namespace', () => {
    const names = infraredPermissions.map(p => p.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names.every(n => n.startsWith('infrared.'))).toBe(true);
  });

  it('include infrared.allowlist.update, an update a policy keeps for platform admins', () => {
    expect(
      infraredPermissions.find(p => p.name === 'infrared.allowlist.update'),
    ).toEqual({
      type: 'basic',
      name: 'infrared.allowlist.update',
      attributes: { action: 'update' },
    });
  });

  it('are basic permissions that a policy can decide without a resource', () => {
    expect(infraredPermissions.some(p => isResourcePermission(p))).toBe(false);
  });
});

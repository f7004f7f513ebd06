import type {
  OrganizationView,
  ZoneView,
} from '@infrared-clusters/plugin-infrared-common';
import { removeClusterWithPlacement } from './removal';

const zone = (name: string, cluster: string, clusterSet = true): ZoneView => ({
  product: { namespace: 'ir-org-acme', name: 'shop', displayName: 'Shop' },
  zone: name,
  environment: 'release',
  cluster,
  clusterSet,
});
const org = (name: string, clusterAllowlist: string[]): OrganizationView => ({
  name,
  displayName: name,
  namespace: `ir-org-${name}`,
  platform: false,
  clusterAllowlist,
});

describe('removeClusterWithPlacement', () => {
  it('lists the zones before the Cluster goes, then takes the name off each allowlist that holds it', async () => {
    const calls: string[] = [];
    const lists: Record<string, string[]> = {
      acme: ['edge', 'core'],
      beta: ['core'],
    };
    const removal = await removeClusterWithPlacement(
      {
        remove: async n => {
          calls.push(`remove ${n}`);
        },
        placement: {
          listZones: async () => {
            calls.push('listZones');
            return [zone('prod', 'edge'), zone('rc', 'infrared-mgmt', false)];
          },
          listOrgs: async () =>
            Object.entries(lists).map(([n, l]) => org(n, l)),
          replaceAllowlist: async (n, change) => {
            const before = lists[n];
            lists[n] = (change as (b: string[]) => string[])(before);
            calls.push(`allowlist ${n}`);
            return { org: n, before, after: lists[n], changed: true };
          },
        },
      },
      'edge',
    );
    expect(calls).toEqual(['listZones', 'remove edge', 'allowlist acme']);
    expect(lists).toEqual({ acme: ['core'], beta: ['core'] });
    expect(removal.zones.map(z => z.zone)).toEqual(['prod']);
    expect(removal.allowlists).toEqual(['acme']);
  });

  it('says which allowlist it could not change, after the Cluster is gone, instead of failing the removal', async () => {
    const removal = await removeClusterWithPlacement(
      {
        remove: async () => {},
        placement: {
          listZones: async () => [],
          listOrgs: async () => [org('acme', ['edge'])],
          replaceAllowlist: async () => {
            throw new Error('conflict after 5 tries');
          },
        },
      },
      'edge',
    );
    expect(removal.allowlists).toEqual([]);
    expect(removal.message).toBe(
      'Cluster edge removed. No zone names cluster edge. Could not take it off the cluster allowlist of org acme (conflict after 5 tries): the entry shows as gone; take it off there.',
    );
  });

  it('does not touch allowlists when the removal is refused', async () => {
    let touched = false;
    await expect(
      removeClusterWithPlacement(
        {
          remove: async () => {
            throw new Error('the management cluster cannot be removed');
          },
          placement: {
            listZones: async () => [],
            listOrgs: async () => {
              touched = true;
              return [];
            },
            replaceAllowlist: async () => {
              throw new Error('not reached');
            },
          },
        },
        'infrared-mgmt',
      ),
    ).rejects.toThrow(/cannot be removed/);
    expect(touched).toBe(false);
  });
});

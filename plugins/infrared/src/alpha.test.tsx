import {
  ApiBlueprint,
  coreExtensionData,
  discoveryApiRef,
  fetchApiRef,
} from '@backstage/frontend-plugin-api';
import { createExtensionTester } from '@backstage/frontend-test-utils';
import { InfraredApiClient } from '@internal/plugin-infrared-common';
import plugin, { clustersPage, infraredApi } from './alpha';
import { infraredPlugin } from './legacy';

describe('plugin wiring', () => {
  it('provides InfraredApiClient on discovery and fetch, in both frontend systems', async () => {
    const factory = createExtensionTester(infraredApi).get(
      ApiBlueprint.dataRefs.factory,
    );
    expect(factory.api.id).toBe('plugin.infrared.api');
    expect(
      Object.values(factory.deps)
        .map(d => d.id)
        .sort(),
    ).toEqual([discoveryApiRef.id, fetchApiRef.id]);
    const calls: string[] = [];
    const client = factory.factory({
      discoveryApi: { getBaseUrl: async () => 'http://b.test/api/infrared' },
      fetchApi: {
        fetch: async (url: string) => {
          calls.push(url);
          return new Response(JSON.stringify({ items: [] }));
        },
      },
    }) as InfraredApiClient;
    expect(client).toBeInstanceOf(InfraredApiClient);
    await expect(client.listClusters()).resolves.toEqual([]);
    expect(calls).toEqual(['http://b.test/api/infrared/v1/clusters']);

    const legacy = [...infraredPlugin.getApis()].map(a => a.api.id);
    expect(legacy).toEqual(['plugin.infrared.api']);
  });

  it('mounts the Clusters page at /clusters', () => {
    expect(plugin.id).toBe('infrared');
    expect(
      createExtensionTester(clustersPage).get(coreExtensionData.routePath),
    ).toBe('/clusters');
  });
});

import {
  ApiBlueprint,
  configApiRef,
  coreExtensionData,
  discoveryApiRef,
  fetchApiRef,
} from '@backstage/frontend-plugin-api';
import { ConfigReader } from '@backstage/config';
import { createExtensionTester } from '@backstage/frontend-test-utils';
import { InfraredApiClient } from '@infrared-clusters/plugin-infrared-common';
import { EntityCardBlueprint } from '@backstage/plugin-catalog-react/alpha';
import plugin, {
  argoCdApi,
  clustersPage,
  infraredApi,
  productPlacementCard,
} from './alpha';
import { ArgoCdClient } from './argocd/ArgoCdClient';
import { EntityProductPlacementCard, infraredPlugin } from './legacy';

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
    expect(legacy).toEqual(['plugin.infrared.api', 'plugin.infrared.argocd']);
  });

  it("provides Argo CD's client on discovery, fetch and config: the proxy path comes from infrared.argocd.proxyPath", async () => {
    const factory = createExtensionTester(argoCdApi).get(
      ApiBlueprint.dataRefs.factory,
    );
    expect(factory.api.id).toBe('plugin.infrared.argocd');
    expect(
      Object.values(factory.deps)
        .map(d => d.id)
        .sort(),
    ).toEqual([configApiRef.id, discoveryApiRef.id, fetchApiRef.id].sort());
    const calls: string[] = [];
    const make = (data: object) =>
      factory.factory({
        discoveryApi: { getBaseUrl: async () => 'http://b.test/api/proxy' },
        fetchApi: {
          fetch: async (url: string) => {
            calls.push(url);
            return new Response(JSON.stringify({ items: [] }));
          },
        },
        configApi: new ConfigReader(data),
      }) as ArgoCdClient;
    const client = make({ infrared: { argocd: { proxyPath: 'argocd/api/' } } });
    expect(client).toBeInstanceOf(ArgoCdClient);
    expect(client.proxyPath).toBe('/argocd/api');
    await expect(client.listClusters()).resolves.toEqual([]);
    expect(calls).toEqual(['http://b.test/api/proxy/argocd/api/v1/clusters']);
    expect(make({}).proxyPath).toBeUndefined();
    expect(plugin.getExtension?.('api:infrared/argocd')).toBeDefined();
  });

  it('mounts the Clusters page at /clusters', () => {
    expect(plugin.id).toBe('infrared');
    expect(
      createExtensionTester(clustersPage).get(coreExtensionData.routePath),
    ).toBe('/clusters');
  });

  it('adds the zone-placement card to entities annotated with a Product, and exports it for the legacy system', () => {
    const tester = createExtensionTester(productPlacementCard);
    const filter = tester.get(EntityCardBlueprint.dataRefs.filterFunction)!;
    const annotated = (annotations: Record<string, string>) =>
      ({
        apiVersion: 'backstage.io/v1alpha1',
        kind: 'Component',
        metadata: { name: 'checkout', annotations },
      } as any);
    expect(
      filter(
        annotated({ 'infrared.darkshift.io/product': 'ir-org-acme/checkout' }),
      ),
    ).toBe(true);
    expect(filter(annotated({}))).toBe(false);
    expect(
      plugin.getExtension?.('entity-card:infrared/product-placement'),
    ).toBeDefined();
    expect(EntityProductPlacementCard).toBeDefined();
  });
});

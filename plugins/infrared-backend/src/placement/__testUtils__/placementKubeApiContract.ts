/* eslint-disable jest/no-export -- a describe factory: two test files run its cases, one on the fake, one on the real API server */
import type {
  ProductZone,
  ReleaseStatus,
} from '@infrared-clusters/plugin-infrared-common';
import type { PlacementKubeApi } from '@infrared-clusters/infrared-kube';
import { uniqueName } from '@internal/devenv';
import {
  kubeFailure as failure,
  sortedNames as names,
} from '../../__testUtils__/kubeFailure';

/** What a contract run needs of the API under test, and how to store what it only reads. */
export interface PlacementKubeApiContractSubject {
  api: PlacementKubeApi;
  /** Stores these objects as an administrator would (kubectl), in namespaces of the run's own. */
  createOrganization(name: string, clusterAllowlist: string[]): Promise<void>;
  createProduct(
    namespace: string,
    name: string,
    zones: ProductZone[],
  ): Promise<void>;
  /** A Release of `product` with this status (through the status subresource). */
  createRelease(
    namespace: string,
    name: string,
    product: string,
    status: Partial<ReleaseStatus>,
  ): Promise<void>;
  /** An Argo CD Application or AppProject with these labels. */
  createArgo(
    kind: 'Application' | 'AppProject',
    namespace: string,
    name: string,
    labels: Record<string, string>,
  ): Promise<void>;
  /** Removes what the run made. */
  cleanUp?(): Promise<void>;
}

/**
 * The cases a PlacementKubeApi must pass the way the real API server does: the lists (one
 * namespace or all, a label selector), 404s as undefined, the replacing writes (a list replaced
 * whole, the rest of the object kept, a new resourceVersion), 409 on a stale resourceVersion, 404 on
 * a missing object, and a status merge patch that leaves the fields it does not name. The same suite
 * runs against `MemoryPlacementApi` (the route tests' fake) and `KubePlacementApi` on the devenv
 * control plane, so that the fake cannot drift from the API server.
 */
export function describePlacementKubeApiContract(
  target: string,
  setUp: () => Promise<PlacementKubeApiContractSubject>,
): void {
  describe(`PlacementKubeApi contract: ${target}`, () => {
    let subject: PlacementKubeApiContractSubject;
    let api: PlacementKubeApi;
    const run = uniqueName('pc');
    const org = run;
    const nsA = `${run}-a`;
    const nsB = `${run}-b`;
    const zone = (name: string, cluster: string): ProductZone => ({
      name,
      cluster,
      environment: 'pre-release',
    });

    beforeAll(async () => {
      subject = await setUp();
      api = subject.api;
      await subject.createOrganization(org, ['edge-1']);
      await subject.createProduct(nsA, 'shop', [zone('shop-dev', 'edge-1')]);
      await subject.createProduct(nsB, 'blog', [zone('blog-dev', 'edge-1')]);
      await subject.createRelease(nsA, 'shop-v1', 'shop', {
        phase: 'Promoting',
        message: 'promoting',
        zones: [{ name: 'shop-dev', phase: 'Pending' }],
      });
      await subject.createRelease(nsB, 'blog-v1', 'blog', { phase: 'Pending' });
      for (const ns of [nsA, nsB]) {
        await subject.createArgo('Application', ns, 'app-x', { run, x: 'y' });
        await subject.createArgo('Application', ns, 'app-z', { run });
        await subject.createArgo('AppProject', ns, 'products', { run });
      }
    });

    afterAll(async () => {
      await subject.cleanUp?.();
    });

    it('getOrganization: as listed; undefined when there is none', async () => {
      const listed = (await api.listOrganizations()).find(
        o => o.metadata.name === org,
      );
      expect(listed?.spec.clusterAllowlist).toEqual(['edge-1']);
      expect(await api.getOrganization(org)).toEqual(listed);
      expect(await api.getOrganization(`${org}-absent`)).toBeUndefined();
    });

    it('replaceClusterAllowlist: replaces the list whole at a new resourceVersion; 409 when stale, 404 when absent', async () => {
      const before = (await api.getOrganization(org))!;
      const rv = before.metadata.resourceVersion!;
      const after = await api.replaceClusterAllowlist(org, ['edge-2'], rv);
      expect(after.spec).toEqual({
        ...before.spec,
        clusterAllowlist: ['edge-2'],
      });
      expect(after.metadata.resourceVersion).not.toBe(rv);
      expect(await api.getOrganization(org)).toEqual(after);
      expect(
        await failure(api.replaceClusterAllowlist(org, ['edge-3'], rv)),
      ).toEqual({ code: 409, reason: 'Conflict' });
      expect((await api.getOrganization(org))!.spec.clusterAllowlist).toEqual([
        'edge-2',
      ]);
      expect(
        (
          await failure(
            api.replaceClusterAllowlist(`${org}-absent`, ['edge-1'], rv),
          )
        ).code,
      ).toBe(404);
    });

    it('listProducts and getProduct: one namespace or all; undefined when there is none', async () => {
      expect(names(await api.listProducts(nsA))).toEqual(['shop']);
      const all = (await api.listProducts()).filter(p =>
        [nsA, nsB].includes(p.metadata.namespace!),
      );
      expect(
        all.map(p => `${p.metadata.namespace}/${p.metadata.name}`),
      ).toEqual(expect.arrayContaining([`${nsA}/shop`, `${nsB}/blog`]));
      expect(all).toHaveLength(2);
      const [shop] = await api.listProducts(nsA);
      expect(await api.getProduct(nsA, 'shop')).toEqual(shop);
      expect(await api.getProduct(nsB, 'shop')).toBeUndefined();
    });

    it('replaceZones: replaces the zones whole, the rest of the Product kept; 409 when stale, 404 when absent', async () => {
      const before = (await api.getProduct(nsA, 'shop'))!;
      const rv = before.metadata.resourceVersion!;
      const zones = [zone('shop-prod', 'edge-2')];
      const after = await api.replaceZones(nsA, 'shop', zones, rv);
      expect(after.spec.delivery?.zones).toEqual([
        expect.objectContaining(zones[0]),
      ]);
      expect({ ...after.spec, delivery: undefined }).toEqual({
        ...before.spec,
        delivery: undefined,
      });
      expect(after.metadata.resourceVersion).not.toBe(rv);
      expect(await failure(api.replaceZones(nsA, 'shop', [], rv))).toEqual({
        code: 409,
        reason: 'Conflict',
      });
      expect(
        (await failure(api.replaceZones(nsA, 'absent', zones, rv))).code,
      ).toBe(404);
    });

    it('listReleases: one namespace or all', async () => {
      expect(names(await api.listReleases(nsB))).toEqual(['blog-v1']);
      const all = (await api.listReleases()).filter(r =>
        [nsA, nsB].includes(r.metadata.namespace!),
      );
      expect(names(all)).toEqual(['blog-v1', 'shop-v1']);
    });

    it('patchReleaseStatus: merges into the status (a list replaced whole, fields not named kept); 409 when stale, 404 when absent', async () => {
      const [before] = await api.listReleases(nsA);
      const rv = before.metadata.resourceVersion!;
      const after = await api.patchReleaseStatus(
        nsA,
        'shop-v1',
        { zones: [{ name: 'shop-prod', phase: 'Promoting' }] },
        rv,
      );
      expect(after.status).toEqual({
        phase: 'Promoting',
        message: 'promoting',
        zones: [{ name: 'shop-prod', phase: 'Promoting' }],
      });
      expect(after.spec).toEqual(before.spec);
      expect(after.metadata.resourceVersion).not.toBe(rv);
      expect(
        await failure(
          api.patchReleaseStatus(nsA, 'shop-v1', { phase: 'Failed' }, rv),
        ),
      ).toEqual({ code: 409, reason: 'Conflict' });
      expect(
        (
          await failure(
            api.patchReleaseStatus(nsA, 'absent', { phase: 'Failed' }),
          )
        ).code,
      ).toBe(404);
    });

    it('patchReleaseStatus: without a resourceVersion it always applies; a field given as undefined is not sent, so it stays', async () => {
      const after = await api.patchReleaseStatus(nsA, 'shop-v1', {
        phase: 'Released',
        message: undefined,
      });
      expect(after.status).toMatchObject({
        phase: 'Released',
        message: 'promoting',
      });
      const [listed] = await api.listReleases(nsA);
      expect(listed).toEqual(after);
    });

    it('listApplications: in one namespace only, by label selector; listAppProjects: in one namespace only', async () => {
      expect(names(await api.listApplications(nsA, `run=${run}`))).toEqual([
        'app-x',
        'app-z',
      ]);
      expect(names(await api.listApplications(nsA, `run=${run},x=y`))).toEqual([
        'app-x',
      ]);
      expect(names(await api.listApplications(nsB, `run=${run},!x`))).toEqual([
        'app-z',
      ]);
      expect(
        (await api.listApplications(nsA)).every(
          a => a.metadata.namespace === nsA,
        ),
      ).toBe(true);
      const projects = await api.listAppProjects(nsB);
      expect(names(projects)).toEqual(['products']);
      expect(projects[0].metadata.namespace).toBe(nsB);
    });

    it('counts one request for each call', async () => {
      const counted = async (call: () => Promise<unknown>) => {
        const before = api.counter.total;
        await call();
        return api.counter.total - before;
      };
      expect(await counted(() => api.listOrganizations())).toBe(1);
      expect(await counted(() => api.getProduct(nsA, 'shop'))).toBe(1);
      expect(await counted(() => api.listReleases(nsA))).toBe(1);
      expect(await counted(() => api.listApplications(nsA))).toBe(1);
    });
  });
}

import { KubeClient as AdminClient } from '@internal/devenv';
import {
  startBackendOnControlPlane,
  type BackendOnControlPlane,
} from '../__testUtils__/backendOnControlPlane';
import { placementObjects } from '../__testUtils__/placementObjects';
import { putAppProject } from './__testUtils__/argocd';
import { RELEASE_GATE_TASK_ID } from './createPlacement';

jest.setTimeout(300_000);

const API = '/apis/infrared.darkshift.io/v1alpha1';
/** Far below any schedule (the test's never runs on its own; the default is one minute). */
const FOLLOW_WITHIN_MS = 30_000;

/**
 * Issue 23.3, "The card's Release column": the release gate follows a change of an allowlist, a
 * Product or a Cluster made outside the placement routes (as kubectl would), by its watches, not by
 * its schedule. The backend runs on its own control plane (its watches would otherwise pass over
 * other tests' Releases) with `infrared.placement.watch` on and a gateInterval of 10 minutes, on a
 * scheduler that runs nothing on its own: only the test's one scheduled pass at the start, so each
 * later status can only come from a watch. After each change the Release's zone status is polled
 * until it matches the card's Decision column (GET .../placement), and the time is recorded.
 */
describe('the release gate on a watch (real control plane)', () => {
  let admin: AdminClient;
  let backend: BackendOnControlPlane;
  const org = 'watch';
  const ns = `ir-org-${org}`;
  const edge = 'edge-watch';
  const other = 'other-watch';
  const zone = 'prod-watch';
  const project = 'products-watch';
  const figures: Record<string, number> = {};

  const send = (url: string) => backend.send('get', url);
  let objects: ReturnType<typeof placementObjects>;
  const merge = (url: string, body: unknown) => objects.merge(url, body);
  const setRegistered = (cluster: string, status: 'True' | 'False') =>
    objects.setRegistered(cluster, status);
  const setZoneCluster = (cluster: string) =>
    merge(`${API}/namespaces/${ns}/products/checkout`, {
      spec: { delivery: { zones: [{ name: zone, cluster }] } },
    });
  /** The Release column: the zone's phase/reason in the Release's status. */
  const releaseColumn = async () => {
    const release = (
      await admin.must('GET', `${API}/namespaces/${ns}/releases/checkout-v1`)
    ).body;
    const z = (release.status?.zones ?? []).find((s: any) => s.name === zone);
    return z ? `${z.phase}/${z.reason}` : 'none';
  };
  /** The Decision column: what the card's GET answers for the zone. */
  const decisionColumn = async () => {
    const answer = await send(`/v1/products/${ns}/checkout/placement`);
    const z = answer.body.zones.find((p: any) => p.name === zone);
    return `${z.decision}/${z.reason}`;
  };
  /** Polls the Release column every 50 ms until it is `want`; the time it took. */
  const follows = async (want: string): Promise<number> => {
    const started = Date.now();
    let seen = await releaseColumn();
    while (seen !== want && Date.now() - started < FOLLOW_WITHIN_MS) {
      await new Promise(r => setTimeout(r, 50));
      seen = await releaseColumn();
    }
    expect(seen).toBe(want);
    return Date.now() - started;
  };

  beforeAll(async () => {
    backend = await startBackendOnControlPlane({
      controlPlane: ['management'],
      argoCrds: true,
      infrared: {
        placement: { project, gateInterval: { minutes: 10 }, watch: true },
      },
      // what the release gate finds when it starts
      beforeStart: async world => {
        admin = world.admin;
        objects = placementObjects(admin);
        await objects.createOrganization(org, { displayName: 'Watch org' });
        await objects.createCluster(edge, 'False');
        await objects.createCluster(other, 'True');
        await objects.createProduct(
          ns,
          'checkout',
          [{ name: zone, cluster: edge }],
          'Checkout',
        );
        await putAppProject(admin, project, [{ name: edge, namespace: zone }]);
        await objects.createRelease(ns, 'checkout-v1', 'checkout', {
          phase: 'Promoting',
        });
      },
    });
  });

  afterAll(async () => {
    // eslint-disable-next-line no-console
    console.log(
      `release column followed the change in (ms): ${JSON.stringify(figures)}`,
    );
    await backend?.stop();
  });

  it('follows an allowlist, a Product and a Cluster change within seconds, agreeing with the Decision column', async () => {
    // The one scheduled pass: the zone's cluster is not on the org's allowlist.
    await backend.pass(RELEASE_GATE_TASK_ID);
    expect(await releaseColumn()).toBe('Failed/NotOnAllowlist');
    expect(await decisionColumn()).toBe('Fails/NotOnAllowlist');

    // kubectl: allow both clusters. Waits: edge is not Registered.
    await merge(`${API}/organizations/${org}`, {
      spec: { clusterAllowlist: [edge, other] },
    });
    figures.allowlist = await follows('Pending/NotRegistered');
    expect(await decisionColumn()).toBe('Waits/NotRegistered');

    // kubectl: move the zone to a cluster the AppProject does not allow.
    await setZoneCluster(other);
    figures.product = await follows('Pending/DestinationNotPermitted');
    expect(await decisionColumn()).toBe('Waits/DestinationNotPermitted');

    // back; then the Cluster becomes Registered: Promotes (published to the gitops repository).
    await setZoneCluster(edge);
    figures.productBack = await follows('Pending/NotRegistered');
    await setRegistered(edge, 'True');
    figures.cluster = await follows('Syncing/WaitingForArgoCD');
    expect(await decisionColumn()).toBe('Promotes/Registered');
  });
});

import { mockServices } from '@backstage/backend-test-utils';
import { AuthorizeResult } from '@backstage/plugin-permission-common';
import {
  eventually,
  getTestControlPlane,
  KubeClient as AdminClient,
  uniqueName,
  removeTestDir,
} from '@internal/devenv';
import type {
  ReleaseResource,
  ReleaseStatus,
} from '@infrared-clusters/plugin-infrared-common';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  startBackendOnControlPlane,
  type BackendOnControlPlane,
} from '../__testUtils__/backendOnControlPlane';
import { placementObjects } from '../__testUtils__/placementObjects';
import { LocalGitPublisher } from '../gitops';
import { bare } from '../gitops/__testUtils__/gitRepos';
import { deleteApplications, putAppProject } from './__testUtils__/argocd';
import { RELEASE_GATE_TASK_ID } from './createPlacement';

jest.setTimeout(180_000);

const API = '/apis/infrared.darkshift.io/v1alpha1';
const OLGA = 'user:default/olga'; // org admin of the org
const UNA = 'user:default/una'; // a member of the org
const NOBODY = 'user:default/nobody'; // in no team
const PAT = 'user:default/pat'; // platform admin (infrared.allowlist.update)

/**
 * Approving release zones through the backend plugin's route on the real management API server, as
 * the ServiceAccount infrared/infrared-backend with only deploy/rbac; the release gate (the real
 * one, on a local gitops repository) puts the zones in AwaitingApproval and promotes them after.
 */
describe('release zone approvals on a real control plane', () => {
  const cp = getTestControlPlane();
  const management = cp.cluster('management');
  const admin = AdminClient.fromKubeconfig(management.kubeconfig);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'infrared-approval-'));
  const repo = bare(path.join(tmp, 'gitops.git'));
  const id = uniqueName('ap');
  const org = id;
  const ns = `ir-org-${org}`;
  const edge = `edge-${id}`;
  const zone = `prod-${id}`;
  const cartZone = `cart-${id}`;
  const project = `products-${id}`;
  const events: Array<{ id: string; meta: any }> = [];
  let backend: BackendOnControlPlane;

  const approve = (who: string, product: string, release: string, z: string) =>
    backend.send(
      'post',
      `/v1/products/${ns}/${product}/releases/${release}/zones/${z}/approval`,
      undefined,
      who,
    );
  const release = async (name: string): Promise<ReleaseResource> =>
    (await admin.must('GET', `${API}/namespaces/${ns}/releases/${name}`)).body;
  const zoneOf = async (name: string, z: string) =>
    (await release(name)).status?.zones?.find(s => s.name === z);
  const gatePass = () => backend.pass(RELEASE_GATE_TASK_ID);

  const objects = placementObjects(admin);
  // environment release: approval human by default
  const makeProduct = (name: string, zoneName: string) =>
    objects.createProduct(ns, name, [
      { name: zoneName, cluster: edge, environment: 'release' },
    ]);
  const makeRelease = (
    name: string,
    productName: string,
    status: Partial<ReleaseStatus>,
  ) => objects.createRelease(ns, name, productName, status);

  beforeAll(async () => {
    await new LocalGitPublisher({ path: path.join(tmp, 'gitops.git') }).publish(
      {
        key: 'seed',
        title: 'Seed',
        body: '',
        files: { 'registry/README.md': 'registry\n' },
      },
    );
    backend = await startBackendOnControlPlane({
      controlPlane: cp,
      argoCrds: true,
      gitops: path.join(tmp, 'gitops.git'),
      infrared: { placement: { project } },
      features: [
        // only pat holds infrared.allowlist.update (a platform admin); everyone reads
        mockServices.permissions.mock({
          authorize: async (requests: any[], options: any) =>
            requests.map(r => ({
              result:
                r.permission.name !== 'infrared.allowlist.update' ||
                options.credentials.principal.userEntityRef === PAT
                  ? AuthorizeResult.ALLOW
                  : AuthorizeResult.DENY,
            })),
        }).factory,
        mockServices.auditor.mock({
          createEvent: async (options: any) => ({
            success: async (done?: any) => {
              events.push({
                id: options.eventId,
                meta: { ...options.meta, ...done?.meta, result: 'succeeded' },
              });
            },
            fail: async (done: any) => {
              events.push({
                id: options.eventId,
                meta: { ...options.meta, result: 'failed' },
              });
              void done;
            },
          }),
        }).factory,
      ],
    });
    await objects.createOrganization(org, {
      displayName: 'Approvals org',
      clusterAllowlist: [edge],
      teams: [
        { name: 'leads', role: 'org-admin', members: [OLGA] },
        { name: 'devs', role: 'member', members: [UNA] },
      ],
    });
    await objects.createCluster(edge);
    // the zones' destinations, and the Namespace their Applications create (CreateNamespace=true)
    await putAppProject(admin, project, [
      { name: edge, namespace: zone },
      { name: edge, namespace: cartZone },
    ]);
    await makeProduct('checkout', zone);
    await makeProduct('cart', cartZone);
    await makeRelease('checkout-v1', 'checkout', { phase: 'Promoting' });
    await makeRelease('cart-v1', 'cart', { phase: 'Promoting' });
    // not gated any more (the gate leaves them as they are): a Healthy and a Pending zone
    await makeRelease('cart-v0', 'cart', {
      phase: 'Released',
      zones: [{ name: cartZone, phase: 'Healthy', reason: 'Healthy' }],
    });
    await makeRelease('cart-old', 'cart', {
      phase: 'Failed',
      zones: [{ name: cartZone, phase: 'Pending', reason: 'WaitingForZone' }],
    });
    await gatePass();
  });

  afterAll(async () => {
    await backend?.stop();
    await deleteApplications(admin, [`product-${zone}`, `product-${cartZone}`]);
    await admin.request(
      'DELETE',
      `/apis/argoproj.io/v1alpha1/namespaces/argocd/appprojects/${project}`,
    );
    await admin.request('DELETE', `/api/v1/namespaces/${ns}`);
    await admin.request('DELETE', `${API}/organizations/${org}`);
    await admin.request('DELETE', `${API}/clusters/${edge}`);
    removeTestDir(tmp);
  });

  it('keeps a release zone AwaitingApproval until someone approves it', async () => {
    expect(await zoneOf('checkout-v1', zone)).toMatchObject({
      phase: 'AwaitingApproval',
      reason: 'ApprovalRequired',
      approval: 'human',
    });
    expect((await zoneOf('checkout-v1', zone))?.approvedBy).toBeUndefined();
    const placement = await backend.send(
      'get',
      `/v1/products/${ns}/checkout/placement`,
      undefined,
      UNA,
    );
    expect(placement.body.can.approveZones).toBe(false);
    expect(placement.body.zones[0].release).toMatchObject({
      name: 'checkout-v1',
      phase: 'AwaitingApproval',
    });
  });

  it('refuses a member of the org and a user of no team with 403, writing nothing', async () => {
    const rv = (await release('checkout-v1')).metadata.resourceVersion;
    for (const who of [UNA, NOBODY]) {
      const res = await approve(who, 'checkout', 'checkout-v1', zone);
      expect(res.status).toBe(403);
      expect(res.body.error.message).toBe(
        `only an org admin of org ${org} (a member of a team with role org-admin) or a platform admin may approve a release zone`,
      );
    }
    expect((await release('checkout-v1')).metadata.resourceVersion).toBe(rv);
    expect(events.filter(e => e.id === 'release-zone-approve')).toEqual([
      expect.objectContaining({
        meta: expect.objectContaining({ result: 'failed' }),
      }),
      expect.objectContaining({
        meta: expect.objectContaining({ result: 'failed' }),
      }),
    ]);
  });

  it('lets an org admin approve: approvedBy set, audited, and the gate promotes the zone', async () => {
    events.length = 0;
    const res = await approve(OLGA, 'checkout', 'checkout-v1', zone);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      release: 'checkout-v1',
      zone,
      phase: 'AwaitingApproval',
      approvedBy: OLGA,
      approvedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    expect(events).toEqual([
      {
        id: 'release-zone-approve',
        meta: {
          product: `${ns}/checkout`,
          release: 'checkout-v1',
          zone,
          approvedBy: OLGA,
          approvedAt: res.body.approvedAt,
          result: 'succeeded',
        },
      },
    ]);
    // the approval started a gate pass: the zone is promoted (the local gitops repo merges at
    // once, so it is past Promoting, Syncing until Argo CD reports it Healthy), approvedBy kept
    const promoted = await eventually(async () => {
      const z = await zoneOf('checkout-v1', zone);
      return z && z.phase !== 'AwaitingApproval' ? z : undefined;
    }, 60_000);
    expect(promoted).toMatchObject({
      phase: expect.stringMatching(/^(Promoting|Syncing)$/),
      approvedBy: OLGA,
      approvedAt: res.body.approvedAt,
      startedAt: expect.any(String),
    });
    expect(
      repo.exists(`registry/clusters/${edge}/components/product-${zone}.yaml`),
    ).toBe(true);

    const placement = await backend.send(
      'get',
      `/v1/products/${ns}/checkout/placement`,
      undefined,
      OLGA,
    );
    expect(placement.body.can.approveZones).toBe(true);
    expect(placement.body.zones[0].release).toMatchObject({
      approvedBy: OLGA,
      approvedAt: res.body.approvedAt,
    });

    // approving it again: 409 naming its phase, nothing written
    const rv = (await release('checkout-v1')).metadata.resourceVersion;
    const again = await approve(PAT, 'checkout', 'checkout-v1', zone);
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe(
      `zone ${zone} of Release checkout-v1 is in phase ${promoted.phase}: only a zone in phase AwaitingApproval can be approved`,
    );
    expect((await release('checkout-v1')).metadata.resourceVersion).toBe(rv);
  });

  it('lets a platform admin approve', async () => {
    expect((await zoneOf('cart-v1', cartZone))?.phase).toBe('AwaitingApproval');
    const res = await approve(PAT, 'cart', 'cart-v1', cartZone);
    expect(res.status).toBe(200);
    expect(res.body.approvedBy).toBe(PAT);
    const promoted = await eventually(async () => {
      const z = await zoneOf('cart-v1', cartZone);
      return z && z.phase !== 'AwaitingApproval' ? z : undefined;
    }, 60_000);
    expect(promoted.approvedBy).toBe(PAT);
  });

  it.each([
    ['cart-v0', 'Healthy'],
    ['cart-old', 'Pending'],
  ])(
    'answers 409 naming the phase for a zone that is not AwaitingApproval (%s: %s), writing nothing',
    async (name, phase) => {
      const rv = (await release(name)).metadata.resourceVersion;
      const res = await approve(OLGA, 'cart', name, cartZone);
      expect(res.status).toBe(409);
      expect(res.body.error.message).toBe(
        `zone ${cartZone} of Release ${name} is in phase ${phase}: only a zone in phase AwaitingApproval can be approved`,
      );
      const after = await release(name);
      expect(after.metadata.resourceVersion).toBe(rv);
      expect(after.status?.zones?.[0].approvedBy).toBeUndefined();
    },
  );

  it('answers 404 for an unknown Release, a Release of another Product, an unknown zone; 400 for a bad name', async () => {
    const rv = (await release('cart-v0')).metadata.resourceVersion;
    const unknown = await approve(OLGA, 'cart', 'cart-v9', cartZone);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toBe(
      `Release ${ns}/cart-v9 of Product cart not found`,
    );
    const other = await approve(OLGA, 'checkout', 'cart-v0', cartZone);
    expect(other.status).toBe(404);
    const noZone = await approve(OLGA, 'cart', 'cart-v0', 'nowhere');
    expect(noZone.status).toBe(404);
    expect(noZone.body.error.message).toBe(
      `Product ${ns}/cart has no zone nowhere (zones: ${cartZone})`,
    );
    const bad = await approve(OLGA, 'cart', 'Cart_V0', cartZone);
    expect(bad.status).toBe(400);
    expect(bad.body.error.errors).toEqual([
      expect.objectContaining({ field: 'release' }),
    ]);
    expect((await release('cart-v0')).metadata.resourceVersion).toBe(rv);
  });
});

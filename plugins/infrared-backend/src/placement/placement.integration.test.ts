import { mockServices } from '@backstage/backend-test-utils';
import {
  getTestControlPlane,
  KubeClient as AdminClient,
  uniqueName,
  removeTestDir,
} from '@internal/devenv';
import type { ReleaseResource } from '@infrared-clusters/plugin-infrared-common';
import {
  KubeClient,
  KubePlacementApi,
  kubeConfigFromText,
  managementApi,
  RequestCounter,
} from '@infrared-clusters/infrared-kube';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { placementObjects } from '../__testUtils__/placementObjects';
import { prepareManagementCluster } from '../clusters/__testUtils__/managementCluster';
import { bare } from '../gitops/__testUtils__/gitRepos';
import { LocalGitPublisher } from '../gitops';
import {
  deleteApplications,
  installArgoCrds,
  putAppProject,
  syncApplicationAsArgoCd,
} from './__testUtils__/argocd';
import { ReleaseGate } from './gate';
import { PlacementService } from './service';

jest.setTimeout(120_000);

const API = '/apis/infrared.darkshift.io/v1alpha1';

/**
 * The release gate and the allowlist on the real management API server, as the ServiceAccount
 * infrared/infrared-backend with only deploy/rbac, with a local gitops repository. Argo CD does not
 * run here: the test applies a zone's Application file and writes its status the way Argo CD does.
 */
describe('placement on a real control plane', () => {
  const cp = getTestControlPlane();
  const management = cp.cluster('management');
  const admin = AdminClient.fromKubeconfig(management.kubeconfig);
  const logger = mockServices.logger.mock();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'infrared-placement-'));
  const repo = bare(path.join(tmp, 'gitops.git'));

  const id = uniqueName('pl');
  const org = id; // <= 56 characters
  const ns = `ir-org-${org}`;
  const mgmt = `mgmt-${id}`;
  const edge = `edge-${id}`;
  const slow = `slow-${id}`;
  const project = `products-${id}`;
  const rc = `rc-${id}`;
  const prod = `prod-${id}`;

  let kube: KubePlacementApi;
  let gate: ReleaseGate;
  let service: PlacementService;
  const counter = new RequestCounter();

  const release = async (name: string): Promise<ReleaseResource> =>
    (await admin.must('GET', `${API}/namespaces/${ns}/releases/${name}`)).body;
  const zones = async (name: string) =>
    Object.fromEntries(
      ((await release(name)).status?.zones ?? []).map(z => [
        z.name,
        `${z.phase}/${z.reason}`,
      ]),
    );
  const objects = placementObjects(admin);
  const setRegistered = objects.setRegistered;
  const rcPath = `registry/clusters/${mgmt}/components/product-${rc}.yaml`;
  const prodPath = `registry/clusters/${slow}/components/product-${prod}.yaml`;
  const commitsTouching = (file: string) =>
    repo
      .run('log', '--format=%H', 'main', '--', file)
      .split('\n')
      .filter(Boolean).length;

  beforeAll(async () => {
    const kubeconfig = await prepareManagementCluster(management);
    await installArgoCrds(management);
    const client = new KubeClient(kubeConfigFromText(kubeconfig), { counter });
    kube = new KubePlacementApi(client);
    const clusters = managementApi(client).clusters;
    const publisher = new LocalGitPublisher({
      path: path.join(tmp, 'gitops.git'),
    });
    // The platform's gitops repository, with one earlier change in it.
    await publisher.publish({
      key: 'seed',
      title: 'Seed',
      body: '',
      files: { 'registry/README.md': 'registry\n' },
    });
    gate = new ReleaseGate({
      kube,
      clusters,
      publisher,
      managementCluster: mgmt,
      project,
      logger,
    });
    service = new PlacementService({
      kube,
      clusters,
      managementCluster: mgmt,
      project,
      logger,
    });

    await objects.createOrganization(org, { displayName: 'Integration org' });
    await objects.createCluster(edge, 'True');
    await objects.createCluster(slow, 'False');
    await objects.createProduct(
      ns,
      'checkout',
      [
        { name: rc },
        { name: prod, cluster: edge, environment: 'release', approval: 'auto' },
      ],
      'Checkout',
    );
    await objects.createRelease(ns, 'checkout-v1', 'checkout', {
      phase: 'Promoting',
    });
  });

  afterAll(async () => {
    await deleteApplications(admin, [`product-${rc}`, `product-${prod}`]);
    await admin.request(
      'DELETE',
      `/apis/argoproj.io/v1alpha1/namespaces/argocd/appprojects/${project}`,
    );
    await admin.request('DELETE', `/api/v1/namespaces/${ns}`);
    await admin.request('DELETE', `${API}/organizations/${org}`);
    for (const name of [edge, slow])
      await admin.request('DELETE', `${API}/clusters/${name}`);
    removeTestDir(tmp);
  });

  it('replaces an allowlist as the backend ServiceAccount, and writes nothing when it is already so', async () => {
    const first = await service.replaceAllowlist(org, [edge]);
    expect(first).toEqual({ org, before: [], after: [edge], changed: true });
    const rv = (await admin.must('GET', `${API}/organizations/${org}`)).body
      .metadata.resourceVersion;
    const again = await service.replaceAllowlist(org, [edge]);
    expect(again).toEqual({
      org,
      before: [edge],
      after: [edge],
      changed: false,
    });
    expect(
      (await admin.must('GET', `${API}/organizations/${org}`)).body.metadata
        .resourceVersion,
    ).toBe(rv);
    await expect(service.replaceAllowlist(`${org}-x`, [edge])).rejects.toThrow(
      `Organization ${org}-x not found`,
    );
    // Start the gate's story with nothing allowed.
    await service.replaceAllowlist(org, []);
    expect(await service.getAllowlist(org)).toEqual({
      clusters: [],
      gone: [],
    });
  });

  it('goes through Fails, Waits and Promotes, writing each zone Application once', async () => {
    // Fails (not on the allowlist) and Waits (the AppProject does not exist yet).
    let pass = await gate.pass();
    expect(pass.releases).toBeGreaterThanOrEqual(1);
    expect(await zones('checkout-v1')).toEqual({
      [rc]: 'Pending/AppProjectMissing',
      [prod]: 'Failed/NotOnAllowlist',
    });
    expect((await release('checkout-v1')).status?.zones?.[1].message).toMatch(
      `cluster ${edge} is not on org ${org}'s cluster allowlist`,
    );
    expect(repo.exists(rcPath)).toBe(false);

    // Promotes the first zone: the AppProject allows the management cluster's zone namespace.
    await putAppProject(admin, project, [
      { server: 'https://kubernetes.default.svc', namespace: rc },
    ]);
    await gate.pass();
    expect(await zones('checkout-v1')).toEqual({
      [rc]: 'Syncing/WaitingForArgoCD',
      [prod]: 'Failed/NotOnAllowlist',
    });
    const afterPromote = await release('checkout-v1');
    expect(afterPromote.status?.zones?.[0]).toMatchObject({
      pullRequest: expect.any(Number),
      pullRequestURL: expect.any(String),
      startedAt: expect.any(String),
      environment: 'pre-release',
    });
    const rcFile = repo.show(rcPath);
    expect(rcFile).toContain(`name: product-${rc}`);
    expect(rcFile).toContain('server: https://kubernetes.default.svc');
    expect(rcFile).toContain(`project: ${project}`);
    expect(commitsTouching(rcPath)).toBe(1);

    // Nothing new: no publish, no status write.
    const head = repo.head();
    const rv = afterPromote.metadata.resourceVersion;
    counter.reset();
    pass = await gate.pass();
    expect(pass.published).toBe(0);
    expect(pass.statusWrites).toBe(0);
    expect(counter.byVerb()).toEqual({ GET: 6 });
    expect(repo.head()).toBe(head);
    expect((await release('checkout-v1')).metadata.resourceVersion).toBe(rv);

    // Argo CD applies and syncs the zone's Application: Healthy.
    await syncApplicationAsArgoCd(admin, rcFile, head);
    await gate.pass();
    expect(await zones('checkout-v1')).toEqual({
      [rc]: 'Healthy/Healthy',
      [prod]: 'Failed/NotOnAllowlist',
    });
    expect((await release('checkout-v1')).status?.zones?.[0].healthyAt).toEqual(
      expect.any(String),
    );

    // Waits: the org may use both clusters; an org admin moves the zone to the one not Registered.
    await service.replaceAllowlist(org, [edge, slow]);
    await service.setZoneCluster(ns, 'checkout', prod, slow, {
      platformAdmin: true,
    });
    await gate.pass();
    expect(await zones('checkout-v1')).toEqual({
      [rc]: 'Healthy/Healthy',
      [prod]: 'Pending/NotRegistered',
    });

    // Waits: Registered, but the AppProject does not allow the destination.
    await setRegistered(slow, 'True');
    await gate.pass();
    expect(await zones('checkout-v1')).toEqual({
      [rc]: 'Healthy/Healthy',
      [prod]: 'Pending/DestinationNotPermitted',
    });
    expect(repo.exists(prodPath)).toBe(false);

    // Promotes.
    await putAppProject(admin, project, [
      { server: 'https://kubernetes.default.svc', namespace: rc },
      { name: slow, namespace: prod },
    ]);
    await gate.pass();
    await gate.pass();
    expect(await zones('checkout-v1')).toEqual({
      [rc]: 'Healthy/Healthy',
      [prod]: 'Syncing/WaitingForArgoCD',
    });
    const prodFile = repo.show(prodPath);
    expect(prodFile).toContain(`name: ${slow}`);
    expect(prodFile).toContain(`namespace: ${prod}`);
    expect(prodFile).toContain('infrared.darkshift.io/version: v1.0.0');
    expect(commitsTouching(prodPath)).toBe(1);

    await syncApplicationAsArgoCd(admin, prodFile, repo.head(), 'Progressing');
    await gate.pass();
    expect((await zones('checkout-v1'))[prod]).toBe('Syncing/WaitingForArgoCD');
    await syncApplicationAsArgoCd(admin, prodFile, repo.head(), 'Healthy');
    await gate.pass();
    const done = await release('checkout-v1');
    expect(done.status?.phase).toBe('Released');
    expect(await zones('checkout-v1')).toEqual({
      [rc]: 'Healthy/Healthy',
      [prod]: 'Healthy/Healthy',
    });
    expect(commitsTouching(rcPath)).toBe(1);
    expect(commitsTouching(prodPath)).toBe(1);

    // A Released Release is no longer evaluated.
    counter.reset();
    await gate.pass();
    expect(counter.byVerb()).toEqual({ GET: 1 });
  });
});

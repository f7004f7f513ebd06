import { eventually } from '@internal/devenv';
import {
  ClusterView,
  findCondition,
  type ReleaseResource,
} from '@infrared-clusters/plugin-infrared-common';
import {
  ARGOCD_BUILD_MS,
  startArgoCdBackend,
  type ArgoCdBackend,
} from '../__testUtils__/argoCdBackend';
import { LocalGitPublisher } from '../gitops';
import { tokenKubeconfig } from '../kube/__testUtils__/workload';
import { RELEASE_GATE_TASK_ID } from './createPlacement';

jest.setTimeout(10 * 60_000);

const REGISTER_TASK = 'infrared-clusters-reconcile';
const API = '/apis/infrared.darkshift.io/v1alpha1';
const ORG = 'acme';
const NS = `ir-org-${ORG}`;
const EDGE = 'edge-demo';
const IN_CLUSTER = 'https://kubernetes.default.svc';
/** A second Product whose zone directory holds an object the AppProject refuses (a team's file). */
const BROKEN = 'ledger';
const REFUSED_NS = 'kube-system';
const VALUES = [
  'replicas: 1',
  'extraObjects:',
  '  - apiVersion: v1',
  '    kind: ConfigMap',
  '    metadata:',
  '      name: extra',
  '',
].join('\n');

/**
 * The placement demo's Release going through on a real Argo CD (issue 21), on a control plane and
 * Argo CD of this test's own (startArgoCdBackend): the release gate writes each zone's Application
 * and its content (zoneContent.ts) to the gitops repository, Argo CD's app-of-apps applies the
 * Application and its application-controller syncs it, and the gate reads the Application's status
 * as Argo CD writes it. Nothing here writes an Application or its status.
 */
describe('the demo Release goes through on a real Argo CD', () => {
  let w: ArgoCdBackend;
  const figures: Record<string, number> = {};

  beforeAll(async () => {
    w = await startArgoCdBackend({ resyncSeconds: 10 });
    if (w.builtSeconds) figures.argocdBuildSeconds = w.builtSeconds;
    await w.scheduler.triggerTask(REGISTER_TASK);
    await w.createRootApplication();
    await registerEdge(w);
    await setUpDemo(w);
  }, ARGOCD_BUILD_MS);

  afterAll(async () => {
    await w?.stop();
    // eslint-disable-next-line no-console
    console.log(`argocd release figures: ${JSON.stringify(figures)}`);
  });

  const release = async (name: string): Promise<ReleaseResource> =>
    (
      await w
        .admin('management')
        .must('GET', `${API}/namespaces/${NS}/releases/${name}`)
    ).body;
  const zoneOf = (r: ReleaseResource, zone: string) =>
    r.status?.zones?.find(z => z.name === zone);
  /** Gate passes until `ok`, recording every phase the zone shows and when it first showed it. */
  const gateUntil = async (
    name: string,
    zone: string,
    ok: (r: ReleaseResource) => boolean,
    seen: Map<string, number>,
    timeoutMs = 180_000,
  ): Promise<ReleaseResource> => {
    let last: ReleaseResource | undefined;
    return eventually(
      async () => {
        await w.scheduler.triggerTask(RELEASE_GATE_TASK_ID);
        last = await release(name);
        const phase = zoneOf(last, zone)?.phase;
        if (phase && !seen.has(phase)) seen.set(phase, Date.now());
        return ok(last) && last;
      },
      timeoutMs,
      500,
    ).catch(async e => {
      throw new Error(
        `${e.message}: Release ${name}: ${JSON.stringify(
          last?.status,
        )}; Argo CD's Applications: ${await w.applicationsSummary()}`,
      );
    });
  };
  const objectsIn = async (cluster: string, namespace: string) => {
    const admin = w.admin(cluster);
    const cm = await admin.must(
      'GET',
      `/api/v1/namespaces/${namespace}/configmaps/checkout-release`,
    );
    const svc = await admin.must(
      'GET',
      `/api/v1/namespaces/${namespace}/services/checkout`,
    );
    return { configMap: cm.body, service: svc.body };
  };
  /** Argo CD's own view of a zone Application: Synced and Healthy, compared at this Release. */
  const argoHealthy = async (zone: string, ref: string) => {
    const app = await w.argoApplicationUntil(
      `product-${zone}`,
      a =>
        a.status?.sync?.status === 'Synced' &&
        a.status?.health?.status === 'Healthy',
      10_000,
    );
    expect(app.status.sync.comparedTo.source.name).toBe(ref);
    expect(app.status.operationState.phase).toBe('Succeeded');
    expect(
      (app.status.resources ?? []).map(
        (r: any) => `${r.kind}/${r.namespace}/${r.name}:${r.status}`,
      ),
    ).toEqual(
      expect.arrayContaining([
        `ConfigMap/${zone}/checkout-release:Synced`,
        `Service/${zone}/checkout:Synced`,
      ]),
    );
    // The values file beside the content is no object: excluded (else a ComparisonError).
    expect(
      (app.status.resources ?? []).filter(
        (r: any) => !['ConfigMap', 'Service', 'Namespace'].includes(r.kind),
      ),
    ).toEqual([]);
    return app;
  };

  it('checkout-rc turns Healthy as Argo CD reports it, checkout-prod waits for approval, then turns Healthy on the workload cluster: Released', async () => {
    const ref = `${NS}/checkout-v0-1-0`;
    const rcSeen = new Map<string, number>();
    const afterRc = await gateUntil(
      'checkout-v0-1-0',
      'checkout-rc',
      r => zoneOf(r, 'checkout-rc')?.phase === 'Healthy',
      rcSeen,
    );
    figures.rcMergeToHealthySeconds =
      (rcSeen.get('Healthy')! - rcSeen.get('Syncing')!) / 1000;
    // Promoting (the Release) while the zone went Syncing, then Healthy; no other phase.
    expect([...rcSeen.keys()]).toEqual(['Syncing', 'Healthy']);
    expect(zoneOf(afterRc, 'checkout-rc')).toMatchObject({
      reason: 'Healthy',
      message: 'Application product-checkout-rc is Synced and Healthy',
      healthyAt: expect.any(String),
      pullRequestURL: expect.any(String),
    });
    await argoHealthy('checkout-rc', ref);
    const rc = await objectsIn('management', 'checkout-rc');
    expect(rc.configMap.data).toEqual({
      product: `${NS}/checkout`,
      zone: 'checkout-rc',
      environment: 'pre-release',
      release: ref,
      version: 'v0.1.0',
      image: 'registry.example/acme/checkout:v0.1.0',
    });
    expect(rc.service.spec.type).toBe('ClusterIP');

    // The release zone waits for a human.
    const waiting = await gateUntil(
      'checkout-v0-1-0',
      'checkout-prod',
      r => zoneOf(r, 'checkout-prod')?.phase === 'AwaitingApproval',
      new Map(),
      30_000,
    );
    expect(waiting.status?.phase).toBe('AwaitingApproval');
    expect(zoneOf(waiting, 'checkout-prod')?.reason).toBe('ApprovalRequired');

    const approvedBy = await approve(w, 'checkout-v0-1-0', 'checkout-prod');
    const prodSeen = new Map<string, number>();
    const done = await gateUntil(
      'checkout-v0-1-0',
      'checkout-prod',
      r => r.status?.phase === 'Released',
      prodSeen,
    );
    figures.prodMergeToHealthySeconds =
      (prodSeen.get('Healthy')! - prodSeen.get('Syncing')!) / 1000;
    expect([...prodSeen.keys()]).toEqual(['Syncing', 'Healthy']);
    expect(zoneOf(done, 'checkout-prod')).toMatchObject({
      phase: 'Healthy',
      approvedBy,
    });
    const prodApp = await argoHealthy('checkout-prod', ref);
    expect(prodApp.spec.destination).toEqual({
      name: EDGE,
      namespace: 'checkout-prod',
    });
    const prod = await objectsIn('workload-a', 'checkout-prod');
    expect(prod.configMap.data).toMatchObject({
      zone: 'checkout-prod',
      environment: 'release',
      version: 'v0.1.0',
    });
    // Nothing of checkout-prod on the management cluster.
    expect(
      (
        await w
          .admin('management')
          .request('GET', '/api/v1/namespaces/checkout-prod')
      ).status,
    ).toBe(404);
  });

  it("a zone Argo CD cannot sync stays Syncing with Argo CD's own message", async () => {
    const zone = `${BROKEN}-rc`;
    const seen = new Map<string, number>();
    const refused = `namespace ${REFUSED_NS} is not permitted in project 'products'`;
    const r = await gateUntil(
      `${BROKEN}-v0-1-0`,
      zone,
      x => !!zoneOf(x, zone)?.message?.includes(refused),
      seen,
    );
    figures.brokenMergeToArgoMessageSeconds =
      (Date.now() - Date.parse(zoneOf(r, zone)!.startedAt!)) / 1000;
    expect(zoneOf(r, zone)).toMatchObject({
      phase: 'Syncing',
      reason: 'WaitingForArgoCD',
    });
    expect(r.status?.phase).toBe('Promoting');
    // The same words as Argo CD's status of the Application.
    const app = (await w.argoGet(`/api/v1/applications/product-${zone}`)).body;
    const said = JSON.stringify({
      conditions: app.status?.conditions,
      operation: app.status?.operationState,
    });
    expect(said).toContain(refused);
    // eslint-disable-next-line no-console
    console.log(`argocd release: ${zone} message: ${zoneOf(r, zone)?.message}`);
  });
});

/** Registers the workload cluster through the API, as the registration test does. */
async function registerEdge(w: ArgoCdBackend): Promise<void> {
  const kubeconfig = await tokenKubeconfig(
    w.cp.cluster('workload-a'),
    'argocd-edge',
    'cluster-admin',
  );
  expect(
    (await w.send('post', '/v1/clusters', { name: EDGE, kubeconfig })).status,
  ).toBe(201);
  await eventually(
    async () => {
      await w.scheduler.triggerTask(REGISTER_TASK);
      const v: ClusterView = (await w.send('get', `/v1/clusters/${EDGE}`)).body;
      return findCondition(v, 'Registered')?.status === 'True';
    },
    60_000,
    200,
  );
}

/**
 * What devenv's placement demo sets up (setUpPlacementDemo), on Argo CD's own CRDs: Organization
 * acme allowing edge-demo, Product checkout with checkout-rc (management cluster) and checkout-prod
 * (release, edge-demo), its Release v0.1.0 Promoting, and the Argo CD bootstrap's AppProject
 * products (deploy/argocd/appprojects.yaml) with both destinations appended. Plus the Product
 * ledger whose zone ledger-rc holds a team's file Argo CD must refuse, and the zones' values files.
 */
async function setUpDemo(w: ArgoCdBackend): Promise<void> {
  const admin = w.admin('management');
  const merge = 'application/merge-patch+json';
  await admin.createIfAbsent('/api/v1/namespaces', {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: NS },
  });
  await admin.must('POST', `${API}/organizations`, {
    apiVersion: 'infrared.darkshift.io/v1alpha1',
    kind: 'Organization',
    metadata: { name: ORG },
    spec: {
      displayName: 'ACME',
      clusterAllowlist: [EDGE],
      teams: [
        {
          name: 'leads',
          role: 'org-admin',
          members: ['user:development/guest'],
        },
      ],
    },
  });
  await admin.must(
    'PATCH',
    `${API}/organizations/${ORG}/status`,
    { status: { namespace: NS } },
    [],
    merge,
  );
  // The bootstrap's AppProject products (createRootApplication: devenv's bootstrapArgoCd) starts
  // with no destination; one is appended per zone, as the Product card's fix does.
  const project =
    '/apis/argoproj.io/v1alpha1/namespaces/argocd/appprojects/products';
  const current = (await admin.must('GET', project)).body;
  expect(current.spec.sourceRepos).toEqual([w.gitopsUrl]);
  await admin.must(
    'PATCH',
    project,
    {
      metadata: { resourceVersion: current.metadata.resourceVersion },
      spec: {
        destinations: [
          ...(current.spec.destinations ?? []),
          { server: IN_CLUSTER, namespace: 'checkout-rc' },
          { name: EDGE, namespace: 'checkout-prod' },
          { server: IN_CLUSTER, namespace: `${BROKEN}-rc` },
        ],
      },
    },
    [],
    merge,
  );
  // Files teams keep in the zones' directories before any Release: the values files
  // (reference.md B) and, in ledger-rc, an object in a namespace the AppProject refuses.
  await new LocalGitPublisher({ path: w.gitopsRepo }).publish({
    key: 'zone-files',
    title: 'Zone files',
    body: '',
    files: {
      // A chart's values with extra objects: no object itself, but it looks like one (apiVersion:,
      // kind:, metadata:), so Argo CD's directory source fails the comparison unless it excludes it.
      'products/checkout/zones/checkout-rc/values.yaml': VALUES,
      'products/checkout/zones/checkout-prod/values.yaml': VALUES,
      [`products/${BROKEN}/zones/${BROKEN}-rc/intruder.yaml`]: [
        'apiVersion: v1',
        'kind: ConfigMap',
        'metadata:',
        '  name: intruder',
        `  namespace: ${REFUSED_NS}`,
        'data:',
        "  note: not this zone's namespace",
        '',
      ].join('\n'),
    },
  });
  for (const [product, zones] of [
    [
      'checkout',
      [
        { name: 'checkout-rc', environment: 'pre-release' },
        { name: 'checkout-prod', environment: 'release', cluster: EDGE },
      ],
    ],
    [BROKEN, [{ name: `${BROKEN}-rc`, environment: 'pre-release' }]],
  ] as const) {
    await admin.must('POST', `${API}/namespaces/${NS}/products`, {
      apiVersion: 'infrared.darkshift.io/v1alpha1',
      kind: 'Product',
      metadata: { name: product, namespace: NS },
      spec: {
        displayName: product,
        repos: [{ name: product, owner: ORG, role: 'app' }],
        delivery: { zones },
      },
    });
    const name = `${product}-v0-1-0`;
    await admin.must('POST', `${API}/namespaces/${NS}/releases`, {
      apiVersion: 'infrared.darkshift.io/v1alpha1',
      kind: 'Release',
      metadata: { name, namespace: NS },
      spec: { productRef: { name: product }, version: 'v0.1.0' },
    });
    // Built and tagged elsewhere: the gate takes it from Promoting.
    await admin.must(
      'PATCH',
      `${API}/namespaces/${NS}/releases/${name}/status`,
      {
        status: {
          phase: 'Promoting',
          version: 'v0.1.0',
          image: `registry.example/acme/${product}:v0.1.0`,
        },
      },
      [],
      merge,
    );
  }
}

/** Approves a zone through the API (as the mock user, a platform admin): the approver's ref. */
async function approve(
  w: ArgoCdBackend,
  name: string,
  zone: string,
): Promise<string> {
  const res = await w.send(
    'post',
    `/v1/products/${NS}/checkout/releases/${name}/zones/${zone}/approval`,
  );
  expect(res.status).toBe(200);
  expect(res.body.approvedBy).toMatch(/^user:/);
  return res.body.approvedBy;
}

import { eventually, uniqueName } from '@internal/devenv';
import {
  ClusterView,
  decideZonePlacement,
  appProjectFacts,
  findCondition,
  placementClusterFacts,
  type ProductPlacementView,
  type ReleaseResource,
  type ZonePlacementView,
} from '@infrared-clusters/plugin-infrared-common';
import { execFileSync } from 'node:child_process';
import { parse, stringify } from 'yaml';
import {
  ARGOCD_BUILD_MS,
  MGMT,
  startArgoCdBackend,
  type ArgoCdBackend,
} from '../__testUtils__/argoCdBackend';
import {
  startArgoCdComponent,
  stopArgoCdComponent,
} from '../__testUtils__/argoCdComponents';
import { LocalGitPublisher } from '../gitops';
import { tokenKubeconfig } from '../kube/__testUtils__/workload';
import { buildZoneApplication, zoneSourcePath } from './application';
import { RELEASE_GATE_TASK_ID } from './createPlacement';

jest.setTimeout(10 * 60_000);

const RECONCILE = 'infrared-clusters-reconcile';
const API = '/apis/infrared.darkshift.io/v1alpha1';
const ARGO = '/apis/argoproj.io/v1alpha1/namespaces/argocd';
const IN_CLUSTER = 'https://kubernetes.default.svc';
const NAMESPACE_KIND = [{ group: '', kind: 'Namespace' }];
const DENIED = /do not match any of the allowed destinations in project/;

/** A ConfigMap in the destination namespace: Healthy for Argo CD without a kubelet. */
const configMap = (name: string) =>
  stringify({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name },
    data: { checkedBy: 'appproject.argocd.integration.test.ts' },
  });

/** Argo CD's verdict on an Application: refused (with its own words) or synced. */
function argoVerdict(
  app: any,
): { permitted: boolean; message: string } | undefined {
  const spec = (app?.status?.conditions ?? []).find(
    (c: any) => c.type === 'InvalidSpecError',
  );
  if (spec) return { permitted: false, message: spec.message };
  const op = app?.status?.operationState;
  // A refused sync: Failed, or Running while automated sync retries it ("Retrying attempt #n").
  const refused = [
    op?.message,
    ...(op?.syncResult?.resources ?? []).map((r: any) => r.message),
  ].find(m => /is not permitted in project/.test(m ?? ''));
  if (refused) return { permitted: false, message: refused };
  if (op?.phase === 'Succeeded' && app.status?.sync?.status === 'Synced') {
    return { permitted: true, message: 'Synced' };
  }
  return undefined;
}

/**
 * The AppProject check of the release gate against the real Argo CD (issue 21): for the same
 * AppProject and Application, the gate's decision (-common's decideZonePlacement, as the gate and
 * the placement view compute it) and Argo CD v3.6.1's own (its InvalidSpecError condition, or a
 * refused sync) agree; the gate waits with the missing destination, Argo CD refuses the very
 * Application the gate would write, and after the Product card's fix both go on. Also: the gate
 * with Argo CD's application-controller stopped.
 */
describe('the AppProject check agrees with a real Argo CD', () => {
  let w: ArgoCdBackend;
  const id = uniqueName('ap').slice(-6);
  const edge = `edge-${id}`;
  const org = `org-${id}`;
  const ns = `ir-org-${org}`;
  const figures: Record<string, number> = {};
  let edgeServer = '';

  const gatePass = () => w.scheduler.triggerTask(RELEASE_GATE_TASK_ID);
  const placementView = async (product: string) => {
    const res = await w.send('get', `/v1/products/${ns}/${product}/placement`);
    expect(res.status).toBe(200);
    return res.body as ProductPlacementView;
  };
  const zoneView = async (product: string, zone: string) =>
    (await placementView(product)).zones.find(
      (z: ZonePlacementView) => z.name === zone,
    )!;
  const releaseOf = async (name: string): Promise<ReleaseResource> =>
    (
      await w
        .admin('management')
        .must('GET', `${API}/namespaces/${ns}/releases/${name}`)
    ).body;
  const zoneStatus = async (release: string, zone: string) =>
    (await releaseOf(release)).status?.zones?.find(z => z.name === zone);
  const appProject = (name: string) =>
    w.admin('management').must('GET', `${ARGO}/appprojects/${name}`);
  const putAppProject = async (name: string, spec: Record<string, unknown>) => {
    const admin = w.admin('management');
    const body = {
      apiVersion: 'argoproj.io/v1alpha1',
      kind: 'AppProject',
      metadata: { name, namespace: 'argocd' },
      spec,
    };
    const made = await admin.must('POST', `${ARGO}/appprojects`, body, [409]);
    if (made.status === 409) {
      const rv = (await appProject(name)).body.metadata.resourceVersion;
      await admin.must('PUT', `${ARGO}/appprojects/${name}`, {
        ...body,
        metadata: { ...body.metadata, resourceVersion: rv },
      });
    }
  };
  const product = async (name: string, zones: object[]) => {
    await w
      .admin('management')
      .must('POST', `${API}/namespaces/${ns}/products`, {
        apiVersion: 'infrared.darkshift.io/v1alpha1',
        kind: 'Product',
        metadata: { name, namespace: ns },
        spec: { displayName: name, repos: [{ name }], delivery: { zones } },
      });
  };
  const promotingRelease = async (name: string, productName: string) => {
    const admin = w.admin('management');
    await admin.must('POST', `${API}/namespaces/${ns}/releases`, {
      apiVersion: 'infrared.darkshift.io/v1alpha1',
      kind: 'Release',
      metadata: { name, namespace: ns },
      spec: { productRef: { name: productName }, version: 'v1.0.0' },
    });
    await admin.must(
      'PATCH',
      `${API}/namespaces/${ns}/releases/${name}/status`,
      { status: { phase: 'Promoting' } },
      [],
      'application/merge-patch+json',
    );
  };
  const publish = (key: string, files: Record<string, string>) =>
    new LocalGitPublisher({ path: w.gitopsRepo }).publish({
      key,
      title: key,
      body: '',
      files,
    });

  beforeAll(async () => {
    w = await startArgoCdBackend({ resyncSeconds: 10 });
    if (w.builtSeconds) figures.argocdBuildSeconds = w.builtSeconds;
    await w.scheduler.triggerTask(RECONCILE);
    await w.createRootApplication();

    // The workload cluster, registered through the API; Argo CD gets its cluster Secret.
    const workload = w.cp.cluster('workload-a');
    edgeServer = workload.server;
    const kubeconfig = await tokenKubeconfig(
      workload,
      uniqueName('ap'),
      'cluster-admin',
    );
    const posted = await w.send('post', '/v1/clusters', {
      name: edge,
      kubeconfig,
    });
    if (posted.status !== 201) {
      throw new Error(`POST /v1/clusters: ${posted.status} ${posted.text}`);
    }
    await eventually(
      async () => {
        await w.scheduler.triggerTask(RECONCILE);
        const v: ClusterView = (await w.send('get', `/v1/clusters/${edge}`))
          .body;
        return findCondition(v, 'Registered')?.status === 'True';
      },
      90_000,
      250,
    );
    await eventually(async () => !!(await w.argoCluster(edge)), 60_000, 500);

    // An org whose allowlist holds the cluster.
    const admin = w.admin('management');
    await admin.must('POST', `${API}/organizations`, {
      apiVersion: 'infrared.darkshift.io/v1alpha1',
      kind: 'Organization',
      metadata: { name: org },
      spec: { displayName: 'AppProject check', clusterAllowlist: [edge] },
    });
    await admin.must('POST', '/api/v1/namespaces', {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: ns },
    });
  }, ARGOCD_BUILD_MS);

  afterAll(async () => {
    await w?.stop();
    // eslint-disable-next-line no-console
    console.log(`appproject/argocd figures: ${JSON.stringify(figures)}`);
  });

  it('decides every case as Argo CD does: destination by name or server, globs, ! denies, project-scoped clusters, the Namespace of CreateNamespace', async () => {
    type Case = {
      title: string;
      /** The zone's cluster: the workload cluster by name, or none (the management cluster). */
      on: 'edge' | 'management';
      destinations: (n: string) => object[];
      whitelist?: object[] | null;
      blacklist?: object[];
      scoped?: boolean;
      permitted: boolean;
    };
    const cases: Case[] = [
      {
        title: 'wildcards',
        on: 'edge',
        destinations: () => [{ server: '*', namespace: '*' }],
        permitted: true,
      },
      {
        title: 'by name and namespace',
        on: 'edge',
        destinations: n => [{ name: edge, namespace: n }],
        permitted: true,
      },
      {
        title: "by the named cluster's server",
        on: 'edge',
        destinations: () => [{ server: edgeServer, namespace: '*' }],
        permitted: true,
      },
      {
        title: 'only the in-cluster server',
        on: 'edge',
        destinations: () => [{ server: IN_CLUSTER, namespace: '*' }],
        permitted: false,
      },
      {
        title: 'name and namespace globs',
        on: 'edge',
        destinations: n => [{ name: 'edge-*', namespace: `${n.slice(0, 4)}*` }],
        permitted: true,
      },
      {
        title: 'another namespace',
        on: 'edge',
        destinations: () => [{ name: edge, namespace: 'payments' }],
        permitted: false,
      },
      {
        title: 'namespace deny by server',
        on: 'edge',
        destinations: n => [
          { server: '*', namespace: '*' },
          { server: '*', namespace: `!${n}` },
        ],
        permitted: false,
      },
      {
        title: 'namespace deny by name only (Argo CD checks it by server)',
        on: 'edge',
        destinations: n => [
          { name: '*', namespace: '*' },
          { name: '*', namespace: `!${n}` },
        ],
        permitted: true,
      },
      {
        title: 'deny of another namespace',
        on: 'edge',
        destinations: () => [
          { server: '*', namespace: '*' },
          { server: '*', namespace: '!kube-system' },
        ],
        permitted: true,
      },
      {
        title: 'cluster deny by name',
        on: 'edge',
        destinations: () => [
          { name: '*', namespace: '*' },
          { name: `!${edge}`, namespace: '*' },
        ],
        permitted: false,
      },
      {
        title: 'cluster deny in another namespace',
        on: 'edge',
        destinations: () => [
          { name: '*', namespace: '*' },
          { name: `!${edge}`, namespace: 'payments' },
        ],
        permitted: true,
      },
      {
        title: 'project-scoped clusters only',
        on: 'edge',
        destinations: () => [{ server: '*', namespace: '*' }],
        scoped: true,
        permitted: false,
      },
      {
        title: 'in-cluster by its name',
        on: 'management',
        destinations: n => [{ name: 'in-cluster', namespace: n }],
        permitted: true,
      },
      {
        title: 'in-cluster, the project lists the workload cluster only',
        on: 'management',
        destinations: () => [{ name: edge, namespace: '*' }],
        permitted: false,
      },
      {
        title: 'no clusterResourceWhitelist (CreateNamespace refused)',
        on: 'edge',
        destinations: () => [{ server: '*', namespace: '*' }],
        whitelist: null,
        permitted: false,
      },
      {
        title: 'Namespace on the blacklist',
        on: 'edge',
        destinations: () => [{ server: '*', namespace: '*' }],
        whitelist: [{ group: '*', kind: '*' }],
        blacklist: NAMESPACE_KIND,
        permitted: false,
      },
      {
        title: 'whitelist by globs',
        on: 'management',
        destinations: () => [{ server: '*', namespace: '*' }],
        whitelist: [{ group: '*', kind: '*' }],
        permitted: true,
      },
    ];
    await publish('agree-content', { 'agree/check.yaml': configMap('agree') });
    const admin = w.admin('management');
    const cluster = (await admin.must('GET', `${API}/clusters/${edge}`)).body;
    const rows = cases.map((c, i) => ({ ...c, name: `agree-${i}-${id}` }));
    for (const row of rows) {
      await putAppProject(row.name, {
        sourceRepos: ['*'],
        destinations: row.destinations(row.name),
        ...(row.whitelist === null
          ? {}
          : { clusterResourceWhitelist: row.whitelist ?? NAMESPACE_KIND }),
        ...(row.blacklist ? { clusterResourceBlacklist: row.blacklist } : {}),
        ...(row.scoped ? { permitOnlyProjectScopedClusters: true } : {}),
      });
    }
    const decisions = new Map<string, string>();
    const applications = new Map<string, string>();
    for (const row of rows) {
      const zone = {
        name: row.name,
        ...(row.on === 'edge' ? { cluster: edge } : {}),
      };
      const placement = decideZonePlacement({
        zone,
        productNamespace: ns,
        org: { name: org, clusterAllowlist: [edge] },
        cluster: row.on === 'edge' ? placementClusterFacts(cluster) : undefined,
        managementCluster: MGMT,
        project: row.name,
        appProject: appProjectFacts((await appProject(row.name)).body),
      });
      decisions.set(row.name, `${placement.decision} ${placement.message}`);
      applications.set(row.name, placement.applicationName);
      // The Application the gate writes for the zone, over the test's content.
      const app = buildZoneApplication({
        product: { namespace: ns, name: 'agree' },
        zone,
        placement,
        release: { namespace: ns, name: 'agree' },
        repoUrl: w.gitopsUrl,
        branch: 'main',
      });
      app.spec.source.path = 'agree';
      delete app.metadata.finalizers;
      await admin.must('POST', `${ARGO}/applications`, app);
    }
    const verdicts = new Map<string, { permitted: boolean; message: string }>();
    await eventually(
      async () => {
        for (const row of rows.filter(r => !verdicts.has(r.name))) {
          const res = await w.argoGet(
            `/api/v1/applications/${applications.get(row.name)}`,
          );
          const verdict = argoVerdict(res.body);
          if (verdict) verdicts.set(row.name, verdict);
        }
        return verdicts.size === rows.length;
      },
      300_000,
      2000,
    ).catch(async e => {
      throw new Error(`${e.message}: ${await w.applicationsSummary()}`);
    });
    const table = rows.map(row => ({
      title: row.title,
      gate: decisions.get(row.name)!.split(' ')[0],
      argo: verdicts.get(row.name)!.permitted ? 'Synced' : 'refused',
      argoMessage: verdicts.get(row.name)!.message,
      gateMessage: decisions.get(row.name)!.slice(0, 160),
    }));
    // eslint-disable-next-line no-console
    console.log(
      table
        .map(
          t =>
            `${t.title}: gate ${t.gate}, Argo CD ${t.argo} (${t.argoMessage})`,
        )
        .join('\n'),
    );
    // Argo CD decided as the case says, and the gate decided as Argo CD did.
    expect(table.map(t => [t.title, t.argo])).toEqual(
      rows.map(r => [r.title, r.permitted ? 'Synced' : 'refused']),
    );
    expect(table.map(t => [t.title, t.gate])).toEqual(
      table.map(t => [t.title, t.argo === 'Synced' ? 'Promotes' : 'Waits']),
    );
    for (const row of rows.filter(r => !r.permitted)) {
      const argo = verdicts.get(row.name)!.message;
      expect(argo).toMatch(
        /do not match any of the allowed destinations|resource :Namespace is not permitted/,
      );
      expect(decisions.get(row.name)).toMatch(
        DENIED.test(argo)
          ? /does not allow destination/
          : /does not let Argo CD create Namespace/,
      );
    }
  });

  it("waits with the missing destination while Argo CD refuses the very Application the gate would write; after the card's fix both go on, to Healthy", async () => {
    const zone = `zn-${id}`;
    const productName = `shop-${id}`;
    // The products AppProject as deploy/argocd/appprojects.yaml ships it: no destination yet.
    await putAppProject('products', {
      sourceRepos: [w.gitopsUrl],
      clusterResourceWhitelist: NAMESPACE_KIND,
    });
    await product(productName, [
      {
        name: zone,
        cluster: edge,
        environment: 'pre-release',
        approval: 'auto',
      },
    ]);
    await promotingRelease(`${productName}-v1`, productName);
    // The zone's content, where the Application's source points.
    const contentDir = zoneSourcePath(productName, {
      name: zone,
      cluster: edge,
    });
    await publish(`content-${zone}`, {
      [`${contentDir}/check.yaml`]: configMap(`${productName}-check`),
    });

    // (a) The gate: Waits, with the destination to add, in the view and the Release's status.
    await gatePass();
    const waiting = await zoneView(productName, zone);
    expect(waiting).toMatchObject({
      decision: 'Waits',
      reason: 'DestinationNotPermitted',
      missingDestination: { name: edge, namespace: zone },
      project: 'products',
    });
    expect(waiting.message).toContain(
      `AppProject products does not allow destination name ${edge}, namespace ${zone}`,
    );
    expect(await zoneStatus(`${productName}-v1`, zone)).toMatchObject({
      phase: 'Pending',
      reason: 'DestinationNotPermitted',
      message: waiting.message,
    });

    // (b) Argo CD refuses the same Application, written as the gate writes it.
    const application = buildZoneApplication({
      product: { namespace: ns, name: productName },
      zone: { name: zone, cluster: edge },
      placement: waiting,
      release: { namespace: ns, name: `${productName}-v1`, version: 'v1.0.0' },
      repoUrl: w.gitopsUrl,
      branch: 'main',
    });
    await w
      .admin('management')
      .must('POST', `${ARGO}/applications`, application);
    const refused = await w.argoApplicationUntil(
      waiting.applicationName,
      app => !!argoVerdict(app),
      180_000,
    );
    expect(refused.status.conditions).toContainEqual(
      expect.objectContaining({
        type: 'InvalidSpecError',
        message: `application destination server '${edge}' and namespace '${zone}' do not match any of the allowed destinations in project 'products'`,
      }),
    );

    // (c) The fix the card shows: the destination appended to the AppProject's spec.destinations.
    const current = (await appProject('products')).body;
    await w.admin('management').must(
      'PATCH',
      `${ARGO}/appprojects/products`,
      {
        metadata: { resourceVersion: current.metadata.resourceVersion },
        spec: {
          destinations: [
            ...(current.spec.destinations ?? []),
            waiting.missingDestination,
          ],
        },
      },
      [],
      'application/merge-patch+json',
    );
    const fixedAt = Date.now();
    // Argo CD goes on by itself: the condition goes, the Application syncs.
    const synced = await w.argoApplicationUntil(
      waiting.applicationName,
      app => argoVerdict(app)?.permitted === true,
      180_000,
    );
    figures.fixToArgoSyncedSeconds = (Date.now() - fixedAt) / 1000;
    expect(synced.status.conditions ?? []).not.toContainEqual(
      expect.objectContaining({ type: 'InvalidSpecError' }),
    );
    // ... and the gate: Promotes, publishes the same Application, and the zone turns Healthy.
    expect((await zoneView(productName, zone)).decision).toBe('Promotes');
    const phases = new Set<string>();
    const healthy = await eventually(
      async () => {
        await gatePass();
        const z = await zoneStatus(`${productName}-v1`, zone);
        phases.add(`${z?.phase}`);
        return (z?.phase === 'Healthy' || z?.phase === 'Failed') && z;
      },
      240_000,
      1000,
    ).catch(async e => {
      throw new Error(
        `${e.message}: zone ${JSON.stringify(
          await zoneStatus(`${productName}-v1`, zone),
        )}; ${await w.applicationsSummary()}`,
      );
    });
    figures.fixToGateHealthySeconds = (Date.now() - fixedAt) / 1000;
    expect(healthy).toMatchObject({ phase: 'Healthy', reason: 'Healthy' });
    expect([...phases]).not.toContain('Failed');
    const written = parse(
      execFileSync(
        'git',
        ['--git-dir', w.gitopsRepo, 'show', `main:${waiting.applicationPath}`],
        { encoding: 'utf8' },
      ),
    );
    expect(written.metadata.name).toBe(application.metadata.name);
    expect(written.spec.project).toBe(application.spec.project);
    expect(written.spec.destination).toEqual(application.spec.destination);
    expect(written.spec.source.path).toBe(application.spec.source.path);
    expect(written.spec.source.repoURL).toBe(w.gitopsUrl);
  });

  it("keeps a promoted zone Syncing, with a message and never Failed, while Argo CD's application-controller is stopped, and Healthy once it runs again", async () => {
    const zone = `cs-${id}`;
    const productName = `ctl-${id}`;
    const current = (await appProject('products')).body;
    await putAppProject('products', {
      ...current.spec,
      destinations: [
        ...(current.spec.destinations ?? []),
        { name: 'in-cluster', namespace: zone },
      ],
    });
    await product(productName, [{ name: zone, approval: 'auto' }]);
    await publish(`content-${zone}`, {
      [`${zoneSourcePath(productName, { name: zone })}/check.yaml`]: configMap(
        `${productName}-check`,
      ),
    });
    await stopArgoCdComponent(w.argo, 'argocd-application-controller');
    const stoppedAt = Date.now();
    await promotingRelease(`${productName}-v1`, productName);

    // Promoted (the change merged), then Syncing pass after pass: nothing applies the file.
    const seen = new Set<string>();
    while (Date.now() - stoppedAt < 45_000) {
      await gatePass();
      const z = await zoneStatus(`${productName}-v1`, zone);
      seen.add(`${z?.phase}/${z?.reason}`);
      expect(z?.phase).not.toBe('Failed');
      await new Promise(r => setTimeout(r, 3000));
    }
    const stuck = await zoneStatus(`${productName}-v1`, zone);
    expect(stuck).toMatchObject({
      phase: 'Syncing',
      reason: 'WaitingForArgoCD',
    });
    expect(stuck?.message).toContain(`product-${zone}`);
    expect([...seen].some(s => s.startsWith('Failed'))).toBe(false);
    expect((await releaseOf(`${productName}-v1`)).status?.phase).toBe(
      'Promoting',
    );

    await startArgoCdComponent(w.argo, 'argocd-application-controller');
    const restartedAt = Date.now();
    await eventually(
      async () => {
        await gatePass();
        return (
          (await zoneStatus(`${productName}-v1`, zone))?.phase === 'Healthy'
        );
      },
      240_000,
      1000,
    ).catch(async e => {
      throw new Error(
        `${e.message}: zone ${JSON.stringify(
          await zoneStatus(`${productName}-v1`, zone),
        )}; ${await w.applicationsSummary()}`,
      );
    });
    figures.controllerRestartToHealthySeconds =
      (Date.now() - restartedAt) / 1000;
    // eslint-disable-next-line no-console
    console.log(
      `while stopped: ${[...seen].join(', ')}; then ${stuck?.message}`,
    );
  });
});

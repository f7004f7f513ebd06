/*
 * Upgrading the chart, CRDs included (issue 22.3), on a control plane of its own (the CRDs change
 * under it, which would disturb other tests on the shared one): the chart as first committed
 * (deploy/helm's first commit) installed with Helm, Clusters, Organizations, Products and a Release
 * written under its schema, then the upgrade to this tree's chart by the chart README's path:
 * `helm show crds <chart> | kubectl apply --server-side --force-conflicts -f -`, then `helm upgrade`.
 * The step is applied here with devenv's serverSideApply, which sends what that kubectl command sends
 * (an apply patch per object, force=true).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { KubeClient } from '@infrared-clusters/infrared-kube';
import { parseManifests, serverSideApply } from './apply';
import { CHART_DIR, runHelm } from './chart';
import { startControlPlane, type ControlPlane } from './controlPlane';
import { ensureHelm } from './helm';
import { removeTestDir } from './testing';

jest.setTimeout(600_000);

const ROOT = path.resolve(__dirname, '../../..');
const G = '/apis/infrared.darkshift.io/v1alpha1';
const ORG_NS = 'ir-org-acme';
const KINDS = [
  ['clusters', ''],
  ['organizations', ''],
  ['products', ORG_NS],
  ['releases', ORG_NS],
] as const;
const kindPath = (plural: string, ns: string) =>
  ns ? `${G}/namespaces/${ns}/${plural}` : `${G}/${plural}`;

/** deploy/helm's first commit: the chart's first version. */
function firstChartCommit(): string {
  const out = execFileSync(
    'git',
    ['log', '--diff-filter=A', '--format=%H', '--', 'deploy/helm'],
    { cwd: ROOT, encoding: 'utf8' },
  ).trim();
  const first = out.split('\n').pop();
  if (!first)
    throw new Error('no commit adds deploy/helm: is the git history there?');
  return first;
}

/** What an upgrade must keep of an object: identity, spec, status, and that it was not rewritten. */
const kept = (o: any) => ({
  name: o.metadata.name,
  namespace: o.metadata.namespace,
  uid: o.metadata.uid,
  resourceVersion: o.metadata.resourceVersion,
  generation: o.metadata.generation,
  spec: o.spec,
  status: o.status,
});

/** One line per object, for the record. */
const printed = (snap: Record<string, any[]>) =>
  Object.entries(snap)
    .flatMap(([plural, items]) =>
      items.map(
        ({ name, namespace, ...rest }) =>
          `${plural} ${
            namespace ? `${namespace}/` : ''
          }${name} ${JSON.stringify(rest)}`,
      ),
    )
    .join('\n');

describe('upgrading the chart from its first version to this tree', () => {
  let cp: ControlPlane;
  let admin: KubeClient;
  let helm: string;
  let kubeconfig: string;
  let oldChart: string;
  let tmp: string;
  const helmRun = (args: string[]) =>
    runHelm(helm, [...args, '--kubeconfig', kubeconfig], ROOT);

  async function snapshot() {
    const out: Record<string, any[]> = {};
    for (const [plural, ns] of KINDS) {
      const list = await admin.must('GET', kindPath(plural, ns));
      out[plural] = list.body.items
        .map(kept)
        .sort((a: any, b: any) => a.name.localeCompare(b.name));
    }
    return out;
  }
  /**
   * Until each kind answers its list: after a schema change the API server re-initializes its
   * storage and answers 429 for a moment (kubectl and client-go retry it).
   */
  async function settled() {
    const deadline = Date.now() + 60_000;
    for (const [plural, ns] of KINDS) {
      while (
        (await admin.request('GET', kindPath(plural, ns))).status === 429
      ) {
        if (Date.now() > deadline)
          throw new Error(`${plural} still answer 429 after 60 s`);
        await new Promise(r => setTimeout(r, 200));
      }
    }
  }
  const crdGeneration = async (plural: string) =>
    (
      await admin.must(
        'GET',
        `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${plural}.infrared.darkshift.io`,
      )
    ).body.metadata.generation;
  const post = (plural: string, ns: string, body: any) =>
    admin.request('POST', kindPath(plural, ns), {
      apiVersion: 'infrared.darkshift.io/v1alpha1',
      ...body,
    });
  const mergePatch = (p: string, body: any) =>
    admin.request('PATCH', p, body, 'application/merge-patch+json');
  const badViewer = {
    kind: 'Cluster',
    metadata: { name: 'bad-viewer' },
    spec: {
      type: 'workload',
      connection: {
        kubeconfigSecretRef: { name: 'edge-kubeconfig' },
        viewerKubeconfigSecretRef: { name: 'Not_A_Secret' },
      },
    },
  };

  beforeAll(async () => {
    helm = ensureHelm().bin;
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'chart-upgrade-'));
    const commit = firstChartCommit();
    execFileSync(
      'bash',
      ['-c', `git archive ${commit} deploy/helm | tar -x -C '${tmp}'`],
      { cwd: ROOT },
    );
    oldChart = path.join(tmp, CHART_DIR);
    cp = await startControlPlane({
      clusters: ['management'],
      ownerPid: process.pid,
    });
    kubeconfig = cp.cluster('management').kubeconfigPath;
    admin = cp.client('management');
  });
  afterAll(async () => {
    await cp?.stop();
    if (tmp) removeTestDir(tmp);
  });

  it('keeps every object, and the new schema is in force', async () => {
    // 1. the first version, as its README installs it (Argo CD's install made argocd)
    await admin.must('POST', '/api/v1/namespaces', {
      metadata: { name: 'argocd' },
    });
    helmRun([
      'install',
      'infrared-clusters',
      oldChart,
      '-n',
      'infrared',
      '--create-namespace',
    ]);
    await admin.must('POST', '/api/v1/namespaces', {
      metadata: { name: ORG_NS },
    });

    // 2. objects valid under the old schema
    const clusters = [
      {
        metadata: { name: 'mgmt' },
        spec: { type: 'management', connection: { inCluster: true } },
      },
      {
        metadata: { name: 'edge-a' },
        spec: {
          type: 'workload',
          flavor: 'k3s',
          provider: 'aws',
          region: 'us-east-1',
          server: 'https://edge-a.example.com:6443',
          connection: {
            kubeconfigSecretRef: { name: 'edge-a-kubeconfig', key: 'config' },
          },
        },
      },
      {
        // seed 000's shape: the credentials Secret by name and key, named before wave 2
        metadata: { name: 'built-old' },
        spec: {
          type: 'workload',
          provider: 'aws',
          template: { module: 'k3s-aws', version: 'v0.1.0' },
          provision: {
            action: 'plan',
            credentialsSecretRef: { name: 'built-old-aws', key: 'aws' },
            variables: { region: 'us-east-1', nodes: '[1,2]' },
          },
        },
      },
      {
        // a field only the new schema has: the old one drops it (pruning)
        metadata: { name: 'viewer-early' },
        spec: {
          type: 'workload',
          connection: {
            kubeconfigSecretRef: { name: 'viewer-early-kubeconfig' },
            viewerKubeconfigSecretRef: { name: 'viewer-early-viewer' },
          },
        },
      },
    ];
    for (const c of clusters)
      expect(
        (await post('clusters', '', { kind: 'Cluster', ...c })).status,
      ).toBe(201);
    await admin.must(
      'PATCH',
      `${G}/clusters/edge-a/status`,
      {
        status: {
          kubernetesVersion: 'v1.31.4',
          nodes: 3,
          argoSecret: 'cluster-edge-a',
          conditions: [
            {
              type: 'Registered',
              status: 'True',
              reason: 'Registered',
              message: 'in Argo CD',
              lastTransitionTime: '2026-11-30T12:00:00Z',
            },
          ],
        },
      },
      [],
      'application/merge-patch+json',
    );
    for (const o of [
      {
        metadata: { name: 'platform' },
        spec: {
          displayName: 'Platform',
          platform: true,
          clusterAllowlist: ['mgmt', 'edge-a'],
          teams: [{ name: 'admins', role: 'platform-admin', members: ['ada'] }],
        },
      },
      {
        metadata: { name: 'acme' },
        spec: { displayName: 'Acme', clusterAllowlist: ['edge-a'] },
      },
    ])
      expect(
        (await post('organizations', '', { kind: 'Organization', ...o }))
          .status,
      ).toBe(201);
    for (const name of ['shop', 'docs'])
      expect(
        (
          await post('products', ORG_NS, {
            kind: 'Product',
            metadata: { name },
            spec: {
              displayName: name,
              repos: [{ name: `acme/${name}`, role: 'app' }],
              delivery: {
                zones: [
                  { name: `${name}-rc`, cluster: 'edge-a' },
                  {
                    name: `${name}-prod`,
                    cluster: 'edge-a',
                    environment: 'release',
                  },
                ],
              },
            },
          })
        ).status,
      ).toBe(201);
    expect(
      (
        await post('releases', ORG_NS, {
          kind: 'Release',
          metadata: { name: 'shop-v1-0-0' },
          spec: { productRef: { name: 'shop' }, version: 'v1.0.0' },
        })
      ).status,
    ).toBe(201);
    await admin.must(
      'PATCH',
      `${G}/namespaces/${ORG_NS}/releases/shop-v1-0-0/status`,
      {
        status: {
          phase: 'Promoting',
          zones: [
            { name: 'shop-rc', phase: 'Healthy' },
            // approvedAt is only in the new schema: dropped now
            {
              name: 'shop-prod',
              phase: 'Promoting',
              approvedBy: 'user:default/ada',
              approvedAt: '2026-12-01T10:00:00Z',
            },
          ],
        },
      },
      [],
      'application/merge-patch+json',
    );
    // the old schema: no viewerKubeconfigSecretRef (dropped, and a bad name is not even checked)
    const viewerBefore = await admin.must('GET', `${G}/clusters/viewer-early`);
    expect(
      viewerBefore.body.spec.connection.viewerKubeconfigSecretRef,
    ).toBeUndefined();
    const badBefore = await post('clusters', '', badViewer);
    expect(badBefore.status).toBe(201);
    await admin.must('DELETE', `${G}/clusters/bad-viewer`);

    const before = await snapshot();
    // eslint-disable-next-line no-console
    console.log(`objects before the upgrade:\n${printed(before)}`);
    expect(Object.values(before).map(l => l.length)).toEqual([4, 2, 2, 1]);

    // 3. helm upgrade alone leaves crds/ as they were (the reason for the README's step)
    const generations = await Promise.all(KINDS.map(([p]) => crdGeneration(p)));
    helmRun(['upgrade', 'infrared-clusters', CHART_DIR, '-n', 'infrared']);
    expect(await Promise.all(KINDS.map(([p]) => crdGeneration(p)))).toEqual(
      generations,
    );
    expect((await post('clusters', '', badViewer)).status).toBe(201);
    await admin.must('DELETE', `${G}/clusters/bad-viewer`);

    // 4. the README's path: the chart's CRDs applied server-side, then helm upgrade
    const crds = parseManifests(
      runHelm(helm, ['show', 'crds', CHART_DIR], ROOT),
    );
    expect(crds.map(c => c.metadata.name).sort()).toEqual(
      KINDS.map(([p]) => `${p}.infrared.darkshift.io`).sort(),
    );
    await serverSideApply(cp.cluster('management'), crds);
    await settled();
    const upgraded = helmRun([
      'upgrade',
      'infrared-clusters',
      CHART_DIR,
      '-n',
      'infrared',
    ]);
    // the chart's NOTES say the CRD step after every upgrade
    expect(upgraded).toMatch(
      /helm show crds .*\n.*kubectl apply --server-side --force-conflicts -f -/,
    );
    const history = JSON.parse(
      helmRun(['history', 'infrared-clusters', '-n', 'infrared', '-o', 'json']),
    );
    const chartVersion = (dir: string) =>
      /^version: (\S+)$/m.exec(
        fs.readFileSync(path.join(dir, 'Chart.yaml'), 'utf8'),
      )![1];
    expect(history.map((h: any) => h.chart)).toEqual([
      `infrared-clusters-${chartVersion(oldChart)}`,
      `infrared-clusters-${chartVersion(path.join(ROOT, CHART_DIR))}`,
      `infrared-clusters-${chartVersion(path.join(ROOT, CHART_DIR))}`,
    ]);
    // a chart whose CRDs or templates changed has a new version
    expect(chartVersion(path.join(ROOT, CHART_DIR))).not.toBe(
      chartVersion(oldChart),
    );
    expect(history.map((h: any) => h.status)).toEqual([
      'superseded',
      'superseded',
      'deployed',
    ]);
    const changed = await Promise.all(KINDS.map(([p]) => crdGeneration(p)));
    // clusters (viewerKubeconfigSecretRef) and releases (approvedAt) changed schema
    expect(changed[0]).toBeGreaterThan(generations[0]);
    expect(changed[3]).toBeGreaterThan(generations[3]);

    // 5. every object kept, not even rewritten
    const after = await snapshot();
    // eslint-disable-next-line no-console
    console.log(`objects after the upgrade:\n${printed(after)}`);
    expect(after).toEqual(before);
    // each is valid under the new schema: written back unchanged, it is accepted
    for (const [plural, ns] of KINDS) {
      for (const o of (await admin.must('GET', kindPath(plural, ns))).body
        .items)
        await admin.must(
          'PUT',
          `${kindPath(plural, ns)}/${o.metadata.name}`,
          o,
        );
    }

    // 6. the new schema is in force: its rule refuses, its fields are kept
    const bad = await post('clusters', '', badViewer);
    expect(bad.status).toBe(422);
    expect(bad.body.message).toMatch(
      /spec\.connection\.viewerKubeconfigSecretRef\.name: Invalid value: "Not_A_Secret"/,
    );
    await mergePatch(`${G}/clusters/viewer-early`, {
      spec: {
        connection: {
          viewerKubeconfigSecretRef: { name: 'viewer-early-viewer' },
        },
      },
    });
    const viewer = await admin.must('GET', `${G}/clusters/viewer-early`);
    expect(viewer.body.spec.connection.viewerKubeconfigSecretRef).toEqual({
      name: 'viewer-early-viewer',
      key: 'kubeconfig',
    });
    const approved = await admin.must(
      'PATCH',
      `${G}/namespaces/${ORG_NS}/releases/shop-v1-0-0/status`,
      {
        status: {
          zones: [
            { name: 'shop-rc', phase: 'Healthy' },
            {
              name: 'shop-prod',
              phase: 'Promoting',
              approvedBy: 'user:default/ada',
              approvedAt: '2026-12-01T10:00:00Z',
            },
          ],
        },
      },
      [],
      'application/merge-patch+json',
    );
    expect(approved.body.status.zones[1].approvedAt).toBe(
      '2026-12-01T10:00:00Z',
    );

    // 7. the templates moved too: the viewer ClusterRole is new, the old infrared-tofu account gone
    await admin.must(
      'GET',
      '/apis/rbac.authorization.k8s.io/v1/clusterroles/infrared-kubernetes-viewer',
    );
    expect(
      (
        await admin.request(
          'GET',
          '/api/v1/namespaces/infrared/serviceaccounts/infrared-tofu',
        )
      ).status,
    ).toBe(404);
  });
});

/* The Helm chart deploy/helm/infrared-clusters, rendered by a real helm (built once from its Go module). */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseManifests } from './apply';
import {
  CHART_DIR,
  DEPLOY_VALUES,
  deployDrift,
  deployManifests,
  renderChart,
  runHelm,
  writeDeployManifests,
} from './chart';
import { ensureHelm } from './helm';

jest.setTimeout(600_000); // a cold helm build takes about 3 minutes

const ROOT = path.resolve(__dirname, '../../..');
const named = (o: any) =>
  `${o.kind} ${o.metadata.namespace ? `${o.metadata.namespace}/` : ''}${
    o.metadata.name
  }`;

describe('the Helm chart deploy/helm/infrared-clusters', () => {
  let helm: string;
  beforeAll(() => {
    helm = ensureHelm().bin;
  });
  const render = (set: Record<string, string> = {}) =>
    parseManifests(renderChart(helm, ROOT, { set }));

  it('passes helm lint --strict', () => {
    expect(runHelm(helm, ['lint', '--strict', CHART_DIR], ROOT)).toMatch(
      /1 chart\(s\) linted, 0 chart\(s\) failed/,
    );
  });

  it('is what deploy/crds and deploy/rbac hold (after a chart change: npx devenv chart)', () => {
    const files = deployManifests(
      renderChart(helm, ROOT, { set: DEPLOY_VALUES, includeCrds: true }),
    );
    expect([...files.keys()]).toEqual([
      'deploy/crds/clusters.yaml',
      'deploy/crds/organizations.yaml',
      'deploy/crds/products.yaml',
      'deploy/crds/releases.yaml',
      'deploy/rbac/00-namespaces.yaml',
      'deploy/rbac/10-serviceaccount.yaml',
      'deploy/rbac/20-clusterrole.yaml',
      'deploy/rbac/30-roles.yaml',
      'deploy/rbac/40-registrar.yaml',
      'deploy/rbac/50-tofu.yaml',
      'deploy/rbac/60-kubernetes-viewer.yaml',
    ]);
    expect(deployDrift(ROOT, files)).toEqual([]);
  });

  it('helm show crds is a YAML stream of the four CRDs (the README upgrade step pipes it to kubectl apply)', () => {
    const crds = parseManifests(
      runHelm(helm, ['show', 'crds', CHART_DIR], ROOT),
    );
    expect(crds.map(named)).toEqual([
      'CustomResourceDefinition clusters.infrared.darkshift.io',
      'CustomResourceDefinition organizations.infrared.darkshift.io',
      'CustomResourceDefinition products.infrared.darkshift.io',
      'CustomResourceDefinition releases.infrared.darkshift.io',
    ]);
  });

  it("by default renders the backend and registrar accounts, and only the OpenTofu Jobs' Namespace", () => {
    expect(render().map(named)).toEqual([
      'Namespace infrared-tofu',
      'ServiceAccount infrared/infrared-backend',
      'ClusterRole infrared-backend',
      'ClusterRole infrared-registrar',
      'ClusterRole infrared-kubernetes-viewer',
      'ClusterRoleBinding infrared-backend',
      'ClusterRoleBinding infrared-registrar',
      'Role infrared/infrared-backend',
      'Role argocd/infrared-backend',
      'Role argocd/infrared-registrar',
      'Role infrared-tofu/infrared-backend',
      'RoleBinding infrared/infrared-backend',
      'RoleBinding argocd/infrared-backend',
      'RoleBinding argocd/infrared-registrar',
      'RoleBinding infrared-tofu/infrared-backend',
    ]);
  });

  it("the OpenTofu Jobs' namespace: Pod Security restricted, enforced; provisioning.namespace moves it and the backend's Role there; never infrared", () => {
    const ns = render().find(o => o.kind === 'Namespace') as any;
    expect(ns.metadata.labels).toMatchObject({
      'pod-security.kubernetes.io/enforce': 'restricted',
    });
    const moved = render({ 'provisioning.namespace': 'builds' }).map(named);
    expect(moved).toEqual(
      expect.arrayContaining([
        'Namespace builds',
        'Role builds/infrared-backend',
        'RoleBinding builds/infrared-backend',
      ]),
    );
    expect(moved.filter(n => /tofu/.test(n))).toEqual([]);
    expect(() => render({ 'provisioning.namespace': 'infrared' })).toThrow(
      /helm template failed .*provisioning.namespace/s,
    );
    // the backend's Role there: no list or watch of Secrets, no delete of anything
    const role = render().find(
      o => o.kind === 'Role' && o.metadata.namespace === 'infrared-tofu',
    ) as any;
    const secrets = role.rules.find((r: any) =>
      r.resources.includes('secrets'),
    );
    expect(secrets.verbs).toEqual(['get', 'create', 'update']);
    expect(role.rules.flatMap((r: any) => r.verbs)).not.toContain('delete');
  });

  it('leaves out the registrar and the OpenTofu account when they are off', () => {
    const names = render({
      'registrar.enabled': 'false',
      'provisioning.enabled': 'false',
    }).map(named);
    expect(names.filter(n => /registrar|tofu/.test(n))).toEqual([]);
    expect(names).toContain('Role argocd/infrared-backend');
  });

  it("puts the registrar's Lease Role in registrar.targetNamespace and binds a renamed ServiceAccount everywhere", () => {
    const objects = render({
      'registrar.targetNamespace': 'argo',
      'serviceAccount.name': 'backstage',
      'namespaces.create': 'true',
    });
    expect(
      objects.filter(o => o.metadata.name === 'infrared-registrar').map(named),
    ).toEqual([
      'ClusterRole infrared-registrar',
      'ClusterRoleBinding infrared-registrar',
      'Role argo/infrared-registrar',
      'RoleBinding argo/infrared-registrar',
    ]);
    const subjects = objects
      .filter(o => /Binding$/.test(o.kind))
      .map((o: any) => o.subjects);
    expect(subjects).toHaveLength(6);
    for (const s of subjects) {
      expect(s).toEqual([
        { kind: 'ServiceAccount', name: 'backstage', namespace: 'infrared' },
      ]);
    }
    expect(objects.filter(o => o.kind === 'Namespace').map(named)).toEqual([
      'Namespace infrared',
      'Namespace argocd',
      'Namespace infrared-tofu',
    ]);
  });

  it("renders the Kubernetes plugin's read-only ClusterRole, which binds nothing, unless kubernetesViewer.enabled is false", () => {
    const viewer = render().filter(
      o => o.metadata.name === 'infrared-kubernetes-viewer',
    );
    expect(viewer.map(named)).toEqual([
      'ClusterRole infrared-kubernetes-viewer',
    ]);
    const verbs = new Set(
      (viewer[0] as any).rules.flatMap((r: any) => r.verbs),
    );
    expect([...verbs]).toEqual(['get', 'list', 'watch']);
    expect(
      render({ 'kubernetesViewer.enabled': 'false' })
        .map(named)
        .filter(n => /viewer/.test(n)),
    ).toEqual([]);
  });

  it('adds the extra labels to every object', () => {
    const objects = render({ 'labels.team': 'platform' });
    for (const o of objects as any[]) {
      expect([named(o), o.metadata.labels]).toEqual([
        named(o),
        expect.objectContaining({
          'app.kubernetes.io/part-of': 'infrared',
          team: 'platform',
        }),
      ]);
    }
  });

  it('refuses values its schema does not allow, naming the field', () => {
    expect(() => render({ 'registrar.targetNamespace': 'Not_A_Name' })).toThrow(
      /helm template failed .*targetNamespace/s,
    );
    expect(() => render({ 'serviceAcount.name': 'x' })).toThrow(
      /helm template failed .*serviceAcount/s,
    );
  });
});

describe('deployDrift and writeDeployManifests', () => {
  let root: string;
  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'chart-drift-'));
    fs.mkdirSync(path.join(root, 'deploy', 'rbac'), { recursive: true });
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it('reports changed, missing and left-over files, and writing makes them equal', () => {
    const files = new Map([
      ['deploy/rbac/10-a.yaml', 'kind: A\n'],
      ['deploy/rbac/20-b.yaml', 'kind: B\n'],
      ['deploy/crds/c.yaml', 'kind: C\n'],
    ]);
    const at = (f: string) => path.join(root, f);
    fs.writeFileSync(at('deploy/rbac/10-a.yaml'), 'kind: A\n');
    fs.writeFileSync(at('deploy/rbac/20-b.yaml'), 'kind: B # edited\n');
    fs.writeFileSync(at('deploy/rbac/99-old.yaml'), 'kind: Old\n');
    fs.writeFileSync(at('deploy/rbac/README.md'), 'not generated\n');
    expect(deployDrift(root, files)).toEqual([
      'deploy/crds/c.yaml',
      'deploy/rbac/20-b.yaml',
      'deploy/rbac/99-old.yaml',
    ]);
    expect(writeDeployManifests(root, files)).toHaveLength(3);
    expect(deployDrift(root, files)).toEqual([]);
    expect(fs.readFileSync(at('deploy/rbac/20-b.yaml'), 'utf8')).toBe(
      'kind: B\n',
    );
    expect(fs.existsSync(at('deploy/rbac/99-old.yaml'))).toBe(false);
    expect(fs.existsSync(at('deploy/rbac/README.md'))).toBe(true);
  });
});

describe('deployManifests', () => {
  it('groups documents by chart file, with a header naming it, and refuses other folders', () => {
    const render = [
      '---',
      '# Source: infrared-clusters/templates/30-roles.yaml',
      'kind: Role',
      '---',
      '# Source: infrared-clusters/crds/x.yaml',
      'kind: CustomResourceDefinition',
      '',
      '---',
      '# Source: infrared-clusters/templates/30-roles.yaml',
      'kind: RoleBinding',
      '',
    ].join('\n');
    expect(Object.fromEntries(deployManifests(render))).toEqual({
      'deploy/crds/x.yaml':
        '# Generated from deploy/helm/infrared-clusters/crds/x.yaml by `npx devenv chart`: edit the chart, not this file.\nkind: CustomResourceDefinition\n',
      'deploy/rbac/30-roles.yaml':
        '# Generated from deploy/helm/infrared-clusters/templates/30-roles.yaml by `npx devenv chart`: edit the chart, not this file.\nkind: Role\n---\nkind: RoleBinding\n',
    });
    expect(() =>
      deployManifests(
        '---\n# Source: infrared-clusters/other/y.yaml\nkind: X\n',
      ),
    ).toThrow(/renders other\/y\.yaml, outside crds\/ and templates\//);
  });
});

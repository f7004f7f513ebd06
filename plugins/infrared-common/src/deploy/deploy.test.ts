/* The manifests under deploy/ are YAML only; these tests keep them parseable and in step with -common. */
import fs from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import {
  CLUSTER_NAME_MAX_LENGTH,
  CLUSTER_NAME_PATTERN,
  DNS_LABEL_PATTERN,
  ORGANIZATION_NAME_MAX_LENGTH,
} from '../clusters/name';
import {
  INFRARED_GROUP,
  INFRARED_KINDS,
  INFRARED_VERSION,
} from '../clusters/names';

const DEPLOY = path.resolve(__dirname, '../../../../deploy');

function load(dir: string): Array<{ file: string; doc: any }> {
  const full = path.join(DEPLOY, dir);
  return fs
    .readdirSync(full)
    .filter(f => /\.ya?ml$/.test(f))
    .sort()
    .flatMap(file =>
      parseAllDocuments(fs.readFileSync(path.join(full, file), 'utf8')).map(
        d => {
          if (d.errors.length)
            throw new Error(`${dir}/${file}: ${d.errors[0].message}`);
          return { file: `${dir}/${file}`, doc: d.toJS() };
        },
      ),
    );
}

const crds = load('crds');
const rbac = load('rbac');
const crdOf = (plural: string) =>
  crds.find(c => c.doc.spec.names.plural === plural)!.doc;
const rootSchema = (crd: any) => crd.spec.versions[0].schema.openAPIV3Schema;
const nameRule = (max: number, pattern: string) =>
  `self.metadata.name.size() <= ${max} && self.metadata.name.matches('${pattern}')`;

describe('deploy/crds', () => {
  it('holds one CRD per Infrared kind, with the group, version, scope and names of -common', () => {
    expect(crds.map(c => c.doc.kind)).toEqual(
      crds.map(() => 'CustomResourceDefinition'),
    );
    expect(crds.map(c => c.doc.apiVersion)).toEqual(
      crds.map(() => 'apiextensions.k8s.io/v1'),
    );
    for (const { kind, plural, namespaced } of Object.values(INFRARED_KINDS)) {
      const crd = crdOf(plural);
      expect(crd.metadata.name).toBe(`${plural}.${INFRARED_GROUP}`);
      expect(crd.spec).toMatchObject({
        group: INFRARED_GROUP,
        names: { kind },
        scope: namespaced ? 'Namespaced' : 'Cluster',
      });
      expect(
        crd.spec.versions.map((v: any) => [
          v.name,
          v.served,
          v.storage,
          v.subresources,
        ]),
      ).toEqual([[INFRARED_VERSION, true, true, { status: {} }]]);
    }
    expect(crds).toHaveLength(Object.keys(INFRARED_KINDS).length);
  });

  it('enforces exactly the cluster name rule of -common in the Cluster CEL rule', () => {
    const rules = rootSchema(crdOf('clusters'))['x-kubernetes-validations'];
    expect(rules).toEqual([
      {
        rule: nameRule(CLUSTER_NAME_MAX_LENGTH, CLUSTER_NAME_PATTERN),
        message: expect.stringMatching(/^metadata\.name .*42/),
      },
    ]);
  });

  it('enforces the organization name limit of -common', () => {
    const rules = rootSchema(crdOf('organizations'))[
      'x-kubernetes-validations'
    ];
    expect(rules[0].rule).toBe(
      nameRule(ORGANIZATION_NAME_MAX_LENGTH, DNS_LABEL_PATTERN),
    );
  });

  it('refuses a Cluster connection with both inCluster and a kubeconfig Secret', () => {
    const connection = rootSchema(crdOf('clusters')).properties.spec.properties
      .connection;
    expect(connection['x-kubernetes-validations'][0].rule).toBe(
      '!(has(self.inCluster) && self.inCluster && has(self.kubeconfigSecretRef))',
    );
  });

  it('answers to the names the docs give kubectl (ircluster and irclusters)', () => {
    const names = (crd: any) => [
      crd.spec.names.plural,
      crd.spec.names.singular,
      ...(crd.spec.names.shortNames ?? []),
    ];
    expect(crdOf('clusters').spec.names.shortNames).toEqual([
      'ircluster',
      'irclusters',
    ]);
    // Every `kubectl ... get ir...` in the README names an Infrared CRD: kubectl resolves only an
    // exact plural, singular or short name (the devenv test checks the API server's discovery).
    const readme = fs.readFileSync(
      path.resolve(DEPLOY, '../README.md'),
      'utf8',
    );
    const asked = [
      ...readme.matchAll(/kubectl\b[^`\n]*?\bget\s+(ir[a-z]*)/g),
    ].map(m => m[1]);
    expect(asked).toContain('irclusters');
    const served = crds.flatMap(c => names(c.doc));
    expect(asked.filter(a => !served.includes(a))).toEqual([]);
    expect(new Set(served).size).toBe(served.length);
  });

  it('prints Connected and Registered from the conditions', () => {
    const columns = crdOf('clusters').spec.versions[0].additionalPrinterColumns;
    expect(columns.map((c: any) => c.name)).toEqual([
      'Type',
      'Connected',
      'Registered',
      'Version',
      'Nodes',
      'Age',
    ]);
    expect(columns[1].jsonPath).toBe(
      '.status.conditions[?(@.type=="Connected")].status',
    );
  });

  it.each(crds.map(c => [c.file, c.doc]))(
    '%s has a structural schema (typed objects, arrays with items)',
    (_f, crd) => {
      const problems: string[] = [];
      const walk = (node: any, at: string) => {
        if (!node.type && !node['x-kubernetes-int-or-string'])
          problems.push(`${at}: no type`);
        if (node.type === 'array' && !node.items)
          problems.push(`${at}: array without items`);
        if (node.properties && node.type !== 'object')
          problems.push(`${at}: properties on ${node.type}`);
        for (const [k, v] of Object.entries(node.properties ?? {}))
          walk(v, `${at}.${k}`);
        if (node.items) walk(node.items, `${at}[]`);
        if (typeof node.additionalProperties === 'object')
          walk(node.additionalProperties, `${at}{}`);
      };
      walk(rootSchema(crd), '');
      expect(problems).toEqual([]);
    },
  );
});

describe('deploy/rbac', () => {
  it('parses into Kubernetes objects with a kind, an apiVersion and a name', () => {
    for (const { file, doc } of rbac) {
      expect([
        file,
        typeof doc.kind,
        typeof doc.apiVersion,
        typeof doc.metadata?.name,
      ]).toEqual([file, 'string', 'string', 'string']);
    }
  });

  // the ClusterRole for workload clusters' viewer credential: shipped unbound, the installer binds it
  const VIEWER = 'infrared-kubernetes-viewer';

  it("binds every role but the workload clusters' viewer ClusterRole to the infrared-backend service account, which exists", () => {
    const sa = rbac.find(r => r.doc.kind === 'ServiceAccount')!.doc;
    expect(sa.metadata).toMatchObject({
      name: 'infrared-backend',
      namespace: 'infrared',
    });
    expect(
      rbac
        .filter(r => r.doc.kind === 'ServiceAccount')
        .map(r => r.doc.metadata.name),
    ).toEqual(['infrared-backend']);
    const bindings = rbac
      .filter(r => /Binding$/.test(r.doc.kind))
      .map(r => r.doc);
    const roles = rbac
      .filter(r => /Role$/.test(r.doc.kind))
      .filter(r => r.doc.metadata.name !== VIEWER)
      .map(r => r.doc);
    expect(bindings).toHaveLength(roles.length);
    for (const b of bindings) {
      expect(b.subjects).toEqual([
        {
          kind: 'ServiceAccount',
          name: 'infrared-backend',
          namespace: 'infrared',
        },
      ]);
      expect(
        roles.some(
          r =>
            r.kind === b.roleRef.kind &&
            r.metadata.name === b.roleRef.name &&
            r.metadata.namespace === b.metadata.namespace,
        ),
      ).toBe(true);
    }
    expect(bindings.map(b => b.roleRef.name)).not.toContain(VIEWER);
  });

  it("grants secrets in infrared and argocd, the OpenTofu namespace's without list, besides the registrar's cluster-wide list and watch", () => {
    const grants = rbac
      .filter(r => /Role$/.test(r.doc.kind))
      .flatMap(r =>
        r.doc.rules
          .filter((rule: any) => rule.resources.includes('secrets'))
          .map((rule: any) => [
            r.doc.metadata.name,
            r.doc.metadata.namespace ?? '*',
            rule.verbs.join(','),
          ]),
      );
    expect(grants).toEqual([
      [
        'infrared-backend',
        'infrared',
        'get,list,watch,create,update,patch,delete',
      ],
      [
        'infrared-backend',
        'argocd',
        'get,list,watch,create,update,patch,delete',
      ],
      ['infrared-registrar', '*', 'list,watch'],
      ['infrared-backend', 'infrared-tofu', 'get,create,update'],
    ]);
  });

  it("the OpenTofu Jobs' namespace enforces Pod Security restricted, and no ServiceAccount of the chart runs Jobs (each Cluster gets its own from the backend)", () => {
    const ns = rbac.find(
      r =>
        r.doc.kind === 'Namespace' && r.doc.metadata.name === 'infrared-tofu',
    )!.doc;
    expect(ns.metadata.labels).toMatchObject({
      'pod-security.kubernetes.io/enforce': 'restricted',
    });
    const subjects = rbac
      .filter(r => /Binding$/.test(r.doc.kind))
      .flatMap(r => r.doc.subjects.map((s: any) => s.name));
    expect([...new Set(subjects)]).toEqual(['infrared-backend']);
  });

  it('Leases: the registrar elects in argocd; the backend makes the OpenTofu locks, moves old ones out of infrared, and holds its installation Lease there', () => {
    const grants = rbac
      .filter(r => /Role$/.test(r.doc.kind))
      .flatMap(r =>
        r.doc.rules
          .filter((rule: any) => rule.resources.includes('leases'))
          .map((rule: any) => [
            r.doc.metadata.name,
            r.doc.metadata.namespace ?? '*',
            rule.apiGroups.join(','),
            rule.verbs.join(','),
          ]),
      );
    expect(grants.sort()).toEqual(
      [
        ['infrared-backend', 'infrared', 'coordination.k8s.io', 'get,delete'],
        // one installation per management cluster: the Lease infrared-installation
        ['infrared-backend', 'infrared', 'coordination.k8s.io', 'get,update'],
        ['infrared-backend', 'infrared', 'coordination.k8s.io', 'create'],
        [
          'infrared-backend',
          'infrared-tofu',
          'coordination.k8s.io',
          'get,create,update',
        ],
        [
          'infrared-registrar',
          'argocd',
          'coordination.k8s.io',
          'get,create,update',
        ],
      ].sort(),
    );
  });

  it('the backend gets only the Job, Pod and log verbs provisioning uses, in the OpenTofu namespace only', () => {
    const verbsIn = (namespace: string, resource: string) =>
      rbac
        .filter(r => /Role$/.test(r.doc.kind))
        .filter(r => r.doc.metadata.name !== VIEWER) // for workload clusters
        .filter(r => (r.doc.metadata.namespace ?? '*') === namespace)
        .flatMap(r => r.doc.rules)
        .filter((r: any) => r.resources.includes(resource))
        .flatMap((r: any) => r.verbs);
    // watch: the Build section follows the Jobs (infrared.provisioning.watch)
    expect(verbsIn('infrared-tofu', 'jobs')).toEqual([
      'list',
      'watch',
      'create',
    ]);
    expect(verbsIn('infrared-tofu', 'pods')).toEqual(['list', 'watch']);
    expect(verbsIn('infrared-tofu', 'pods/log')).toEqual(['get']);
    for (const elsewhere of ['infrared', 'argocd', '*']) {
      expect([elsewhere, verbsIn(elsewhere, 'jobs')]).toEqual([elsewhere, []]);
    }
  });
});

/*
 * SECURITY.md's statements about RBAC, checked against what the project grants: the chart's render
 * (deploy/rbac, held equal to the chart by chart.test.ts, and a fresh helm render for other values)
 * and the per-Cluster Roles the backend makes for OpenTofu Jobs (infrared-kube's tofuAccessObjects).
 */
import fs from 'node:fs';
import path from 'node:path';
import { tofuAccessObjects } from '@infrared-clusters/infrared-kube';
import { parseManifests } from './apply';
import { renderChart } from './chart';
import { ensureHelm } from './helm';

jest.setTimeout(600_000); // a cold helm build takes about 3 minutes

const ROOT = path.resolve(__dirname, '../../..');

interface Row {
  who: string;
  where: string;
  apiGroups: string;
  resources: string;
  resourceNames: string;
  verbs: string;
}
const rbac = require(path.join(ROOT, 'scripts', 'security-rbac.js')) as {
  rbacManifests(dir?: string): any[];
  grantRows(manifests: any[]): Row[];
  renderTable(rows: Row[]): string;
  normalizeTable(table: string): string;
  tableIn(markdown: string, name: string): string | undefined;
  SECURITY_MD: string;
};
const security = () => fs.readFileSync(rbac.SECURITY_MD, 'utf8');

/** The rows of one OpenTofu Job identity, with its sample names written as SECURITY.md does. */
function runtimeRows(): Row[] {
  const objects = tofuAccessObjects(
    {
      apiVersion: 'infrared.darkshift.io/v1alpha1',
      kind: 'Cluster',
      metadata: {
        name: 'xcluster',
        uid: '00000000-1111-2222-3333-444444444444',
      },
      spec: {
        type: 'workload',
        template: { module: 'local/demo' },
        provision: {},
      },
    } as any,
    'infrared-tofu',
  );
  const placeholders = (text: string) =>
    text.replace(/xcluster/g, '<cluster>').replace(/00000000/g, '<suffix>');
  return rbac
    .grantRows(objects)
    .map(
      row =>
        Object.fromEntries(
          Object.entries(row).map(([k, v]) => [k, placeholders(v)]),
        ) as unknown as Row,
    );
}

describe('SECURITY.md against the RBAC the project grants', () => {
  it('its chart table is every rule deploy/rbac grants, per subject (after a chart change: node scripts/security-rbac.js --write)', () => {
    expect(rbac.tableIn(security(), 'chart')).toBe(
      rbac.normalizeTable(
        rbac.renderTable(rbac.grantRows(rbac.rbacManifests())),
      ),
    );
  });

  it("its OpenTofu table is what the backend grants a Cluster's Jobs", () => {
    expect(rbac.tableIn(security(), 'runtime')).toBe(
      rbac.normalizeTable(rbac.renderTable(runtimeRows())),
    );
  });

  it("an OpenTofu Job's identity names every Secret and Lease it may touch, never lists, never creates", () => {
    for (const row of runtimeRows()) {
      expect(row.resourceNames).not.toBe('');
      expect(row.verbs.split(', ')).not.toEqual(
        expect.arrayContaining(['list']),
      );
      expect(row.verbs.split(', ')).not.toContain('create');
    }
  });

  it('the backend holds in the OpenTofu namespace what it grants there (RBAC lets it grant no more than it holds)', () => {
    const backend = rbac
      .grantRows(rbac.rbacManifests())
      .filter(
        r =>
          r.who === 'ServiceAccount infrared/infrared-backend' &&
          r.where === 'infrared-tofu',
      );
    for (const granted of runtimeRows()) {
      const holds = backend.some(
        r =>
          r.apiGroups === granted.apiGroups &&
          r.resources.split(', ').includes(granted.resources) &&
          granted.verbs.split(', ').every(v => r.verbs.split(', ').includes(v)),
      );
      expect([granted.resources, holds]).toEqual([granted.resources, true]);
    }
  });

  it('with the registrar off (registrar.enabled=false) no identity of the chart reads Secrets cluster-wide', () => {
    const helm = ensureHelm().bin;
    const on = rbac.grantRows(parseManifests(renderChart(helm, ROOT, {})));
    const off = rbac.grantRows(
      parseManifests(
        renderChart(helm, ROOT, { set: { 'registrar.enabled': 'false' } }),
      ),
    );
    const clusterWideSecrets = (rows: Row[]) =>
      rows.filter(
        r =>
          r.where === 'cluster-wide' &&
          r.apiGroups === 'core' &&
          r.resources.split(', ').includes('secrets') &&
          !r.who.endsWith('(unbound)'),
      );
    expect(clusterWideSecrets(on).map(r => r.who)).toEqual([
      'ServiceAccount infrared/infrared-backend',
    ]);
    expect(clusterWideSecrets(off)).toEqual([]);
  });

  it('names every identity and namespace the chart uses', () => {
    const text = security();
    for (const row of rbac.grantRows(rbac.rbacManifests())) {
      const name = row.who.replace(/^(ServiceAccount|ClusterRole) /, '');
      expect([name, text.includes(name.replace(' (unbound)', ''))]).toEqual([
        name,
        true,
      ]);
    }
  });
});

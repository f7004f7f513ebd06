/*
 * SECURITY.md's table of the argocd-cluster-registrar chart's grants (between the rbac-registrar-chart
 * markers), checked against a real helm render with leader election on (every rule the chart can
 * grant), by scripts/security-rbac.js's own rows and table. After a chart change:
 *   WRITE_SECURITY_MD=1 CI=true npx backstage-cli package test src/security.test.ts
 */
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { helmBin, render } from './__testUtils__/chart';
import { REPO } from './__testUtils__/image';

jest.setTimeout(600_000); // a cold helm build takes about 3 minutes

const rbac = require(path.join(REPO, 'scripts', 'security-rbac.js')) as {
  grantRows(manifests: any[]): any[];
  renderTable(rows: any[]): string;
  normalizeTable(table: string): string;
  tableIn(markdown: string, name: string): string | undefined;
  replaceTable(markdown: string, name: string, table: string): string;
  SECURITY_MD: string;
};
const NAME = 'registrar-chart';

describe("SECURITY.md's table of the argocd-cluster-registrar chart", () => {
  it('is what the chart grants (release acr in argocd-cluster-registrar, leader election on)', () => {
    helmBin();
    const table = rbac.renderTable(
      rbac.grantRows(
        render({
          release: 'acr',
          namespace: 'argocd-cluster-registrar',
          set: { 'leaderElection.enabled': 'true' },
        }),
      ),
    );
    if (process.env.WRITE_SECURITY_MD) {
      const md = fs.readFileSync(rbac.SECURITY_MD, 'utf8');
      fs.writeFileSync(rbac.SECURITY_MD, rbac.replaceTable(md, NAME, table));
      spawnSync(path.join(REPO, 'node_modules', '.bin', 'prettier'), [
        '--write',
        rbac.SECURITY_MD,
      ]);
    }
    const written = rbac.tableIn(
      fs.readFileSync(rbac.SECURITY_MD, 'utf8'),
      NAME,
    );
    expect(written).toBe(rbac.normalizeTable(table));
  });
});

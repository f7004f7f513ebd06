import fs from 'node:fs';
import path from 'node:path';
import { CALLERS, matrixFigures, PERMISSION_MATRIX } from './matrix';
import {
  README_END,
  README_START,
  renderPermissionSection,
  replaceSection,
} from './readme';

const ROOT = path.resolve(__dirname, '../../../..');
const README = path.join(ROOT, 'README.md');
const BACKEND_README = path.join(ROOT, 'plugins/infrared-backend/README.md');

/** The permission column of the infrared backend README's route table, by `METHOD /path`. */
function backendReadmePermissions(): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of fs.readFileSync(BACKEND_README, 'utf8').split('\n')) {
    const m =
      /^\|\s*`(GET|POST|PUT|DELETE) \/api\/infrared(\S+)`\s*\|([^|]*)\|/.exec(
        line,
      );
    if (m) out.set(`${m[1]} ${m[2]}`, m[3].trim());
  }
  return out;
}

/** A markdown table as prettier may align it or not: cells trimmed, rules as `---`. */
const normalized = (text: string) =>
  text
    .split('\n')
    .map(line =>
      line.startsWith('|')
        ? line
            .split(/(?<!\\)\|/)
            .map(c => c.trim())
            .map(c => (/^:?-+:?$/.test(c) ? '---' : c))
            .join('|')
        : line.trim(),
    )
    .join('\n');

describe("the README's permission section", () => {
  it('is the table of matrix.ts (UPDATE_PERMISSION_MATRIX=1 rewrites it)', () => {
    const readme = fs.readFileSync(README, 'utf8');
    const section = renderPermissionSection();
    if (process.env.UPDATE_PERMISSION_MATRIX === '1') {
      const next = replaceSection(readme, section);
      if (!next) throw new Error(`README.md has no ${README_START} section`);
      fs.writeFileSync(README, next);
    }
    const current = fs.readFileSync(README, 'utf8');
    const start = current.indexOf(README_START);
    const end = current.indexOf(README_END);
    expect(start).toBeGreaterThanOrEqual(0);
    expect(normalized(current.slice(start, end + README_END.length))).toBe(
      normalized(section),
    );
  });

  it("names, for every Infrared route, the permission the infrared backend's README names", () => {
    const documented = backendReadmePermissions();
    const rows = PERMISSION_MATRIX.filter(r => r.surface === 'infrared');
    const routeOf = (route: string) =>
      route.replace(/ \(.*\)$/, '').replace(/\{ns\}/g, '{namespace}');
    const routes = new Set(rows.map(r => routeOf(r.route)));
    // every route of the backend README's table is a row of the matrix, and the reverse
    expect([...routes].sort()).toEqual([...documented.keys()].sort());
    for (const row of rows) {
      const key = routeOf(row.route);
      const names = row.rule.match(/infrared\.[a-z.]+[a-z]/g) ?? [];
      for (const name of names) {
        expect([key, documented.get(key)]).toEqual([
          key,
          expect.stringContaining(name),
        ]);
      }
    }
  });

  it('prints its figures', () => {
    const figures = matrixFigures();
    // eslint-disable-next-line no-console
    console.log(
      `permission matrix: ${figures.routes} routes x ${figures.callers} callers = ${figures.cases} cases`,
    );
    expect(figures.cases).toBe(PERMISSION_MATRIX.length * CALLERS.length);
    expect(new Set(PERMISSION_MATRIX.map(r => r.id)).size).toBe(
      PERMISSION_MATRIX.length,
    );
  });
});
